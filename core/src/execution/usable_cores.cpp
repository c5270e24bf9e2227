// How many CPUs this process may really use (attn/execution/parallel.hpp): the
// machine's count (std::thread::hardware_concurrency) is wrong under
// `taskset` and in a container limited by a cpuset or a CPU quota, where
// starting one thread per machine CPU makes them queue for the few they get.
#include "execution/usable_cores.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <thread>

#include "attn/execution/parallel.hpp"
#include "attn/platform/cores.hpp"

namespace attn {
namespace detail {

namespace {

int quota_over_period(double quota, double period) {
  if (!(quota > 0) || !(period > 0)) return 0;
  return std::max(1, static_cast<int>(std::ceil(quota / period - 1e-9)));
}

std::string read_first_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

}  // namespace

int cpu_max_cores(const std::string& cpu_max) {
  std::istringstream in(cpu_max);
  std::string quota;
  double period = 100000;
  if (!(in >> quota) || quota == "max") return 0;
  in >> period;
  char* end = nullptr;
  const double q = std::strtod(quota.c_str(), &end);
  if (end == quota.c_str() || *end != '\0') return 0;
  return quota_over_period(q, period);
}

int cfs_quota_cores(long long quota_us, long long period_us) {
  return quota_over_period(static_cast<double>(quota_us), static_cast<double>(period_us));
}

int combine_core_limits(int online, int affinity, int quota) {
  int n = std::max(online, 1);
  if (affinity > 0) n = std::min(n, affinity);
  if (quota > 0) n = std::min(n, quota);
  return std::max(n, 1);
}

int affinity_cores() { return platform::affinity_cores(); }

int cgroup_quota_cores() {
#if defined(__linux__)
  // cgroup v2: this process's group ("0::/PATH" in /proc/self/cgroup) and
  // every group above it may each set a quota; the smallest binds.
  int best = 0;
  std::ifstream groups("/proc/self/cgroup");
  std::string line;
  while (std::getline(groups, line)) {
    if (line.rfind("0::", 0) != 0) continue;
    std::string path = line.substr(3);
    for (;;) {
      const int q = cpu_max_cores(read_first_line("/sys/fs/cgroup" + path + "/cpu.max"));
      if (q > 0) best = best > 0 ? std::min(best, q) : q;
      if (path.empty() || path == "/") break;
      const std::size_t slash = path.find_last_of('/');
      path = slash == std::string::npos || slash == 0 ? "/" : path.substr(0, slash);
    }
  }
  if (best > 0) return best;
  // cgroup v1, as a container sees its own group at the mount point.
  for (const char* dir : {"/sys/fs/cgroup/cpu,cpuacct", "/sys/fs/cgroup/cpu"}) {
    std::ifstream quota(std::string(dir) + "/cpu.cfs_quota_us"), period(std::string(dir) + "/cpu.cfs_period_us");
    long long q = 0, p = 0;
    if (quota >> q && period >> p) return cfs_quota_cores(q, p);
  }
#endif
  return 0;
}

}  // namespace detail

int usable_cores() {
  // Read once: the files and the mask cost microseconds, and the pools ask
  // for every product.
  static const int cores = detail::combine_core_limits(static_cast<int>(std::thread::hardware_concurrency()),
                                                       detail::affinity_cores(), detail::cgroup_quota_cores());
  return cores;
}

}  // namespace attn
