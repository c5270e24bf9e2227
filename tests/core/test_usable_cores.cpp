// How many CPUs the core's threads may use (attn::usable_cores): the
// machine's count limited by the affinity mask and the cgroup quota. The
// quota files are fed as text; the mask is the process's (this test runs on
// its first thread), narrowed and restored here.
#include <doctest/doctest.h>

#include <thread>

#if defined(__linux__)
#include <sched.h>
#endif

#include "attn/execution/parallel.hpp"
#include "execution/usable_cores.hpp"

using namespace attn::detail;

TEST_CASE("usable cores: a cgroup v2 cpu.max becomes whole CPUs rounded up, and no limit is 0") {
  CHECK(cpu_max_cores("max 100000") == 0);
  CHECK(cpu_max_cores("200000 100000") == 2);
  CHECK(cpu_max_cores("150000 100000") == 2);
  CHECK(cpu_max_cores("50000 100000") == 1);
  CHECK(cpu_max_cores("400000") == 4);  // the period defaults to 100 ms
  CHECK(cpu_max_cores("") == 0);
  CHECK(cpu_max_cores("lots 100000") == 0);
  CHECK(cpu_max_cores("-1 100000") == 0);
  CHECK(cpu_max_cores("100000 0") == 0);
}

TEST_CASE("usable cores: a cgroup v1 quota over its period, -1 unlimited") {
  CHECK(cfs_quota_cores(-1, 100000) == 0);
  CHECK(cfs_quota_cores(300000, 100000) == 3);
  CHECK(cfs_quota_cores(250000, 100000) == 3);
  CHECK(cfs_quota_cores(100000, 0) == 0);
}

TEST_CASE("usable cores: the tightest of the machine, the mask and the quota, at least 1") {
  CHECK(combine_core_limits(16, 0, 0) == 16);
  CHECK(combine_core_limits(16, 2, 0) == 2);      // taskset -c 0,1
  CHECK(combine_core_limits(16, 16, 4) == 4);     // docker --cpus 4
  CHECK(combine_core_limits(16, 3, 8) == 3);
  CHECK(combine_core_limits(0, 0, 0) == 1);       // hardware_concurrency may say 0
}

TEST_CASE("usable cores: never more than the machine's, and a thread held to one CPU counts one") {
  const int machine = static_cast<int>(std::thread::hardware_concurrency());
  CHECK(attn::usable_cores() >= 1);
  if (machine > 0) CHECK(attn::usable_cores() <= machine);
#if defined(__linux__)
  cpu_set_t before;
  REQUIRE(sched_getaffinity(0, sizeof before, &before) == 0);
  CHECK(affinity_cores() == CPU_COUNT(&before));
  int first = 0;
  while (first < CPU_SETSIZE && !CPU_ISSET(first, &before)) ++first;
  REQUIRE(first < CPU_SETSIZE);
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(first, &one);
  REQUIRE(sched_setaffinity(0, sizeof one, &one) == 0);
  const int held = affinity_cores();
  REQUIRE(sched_setaffinity(0, sizeof before, &before) == 0);
  CHECK(held == 1);
#endif
}
