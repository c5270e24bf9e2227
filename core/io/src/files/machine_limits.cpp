// Reading /proc/meminfo once per call: cheap, and current (a machine's free
// memory changes while the app runs).
#include "attn/io/machine_limits.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

namespace attn::io {

long long available_memory_bytes() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  long long kib = 0;
  std::string unit;
  while (in >> key >> kib >> unit)
    if (key == "MemAvailable:") return kib * 1024;
  return 0;
}

Limits limits_for_memory(long long available) {
  Limits l;
  if (available <= 0) return l;
  const long long half = available / 2;
  if (half < l.max_trace_bytes) {
    l.max_trace_bytes = half;
    char gib[32];
    std::snprintf(gib, sizeof gib, "%.1f", static_cast<double>(available) / (1LL << 30));
    l.trace_limit_reason = std::string("half of the ") + gib + " GiB this machine has available";
  }
  return l;
}

Limits machine_limits() { return limits_for_memory(available_memory_bytes()); }

}  // namespace attn::io
