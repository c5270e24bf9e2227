// Runs a Python peer script and reads the one JSON line it prints. Shared by
// the benchmarks so both report a missing python3 or torch the same way.
#pragma once

#include <cstdio>
#include <string>

#include <nlohmann/json.hpp>

namespace bench {

// {"error": "..."} when the script could not run or printed no JSON.
inline nlohmann::json run_python_json(const std::string& script_and_args) {
  const std::string cmd = "/usr/bin/python3 " + script_and_args + " 2>/dev/null";
  std::FILE* pipe = ::popen(cmd.c_str(), "r");
  if (!pipe) return {{"error", "cannot start python3"}};
  char buf[4096];
  std::string out;
  while (std::fgets(buf, sizeof buf, pipe)) out += buf;
  ::pclose(pipe);
  try {
    return nlohmann::json::parse(out);
  } catch (const std::exception&) {
    return {{"error", "python3 or torch not available"}};
  }
}

}  // namespace bench
