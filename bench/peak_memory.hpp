// Peak resident memory (VmHWM) for the benchmarks' tables, reset between
// measurements through clear_refs.
#pragma once

#include <fstream>
#include <string>

namespace bench {

inline void reset_peak() { std::ofstream("/proc/self/clear_refs") << "5"; }

inline double peak_mb() {
  std::ifstream in("/proc/self/status");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("VmHWM:", 0) == 0) return std::stod(line.substr(6)) / 1024;
  return 0;
}

}  // namespace bench
