// Internal: the pieces of attn::usable_cores() (attn/execution/parallel.hpp), apart so
// the tests can feed them a cgroup's files and an affinity mask of their own.
#pragma once

#include <string>

namespace attn::detail {

// A cgroup v2 `cpu.max` ("150000 100000": 1.5 CPUs) as whole CPUs, rounded
// up (two threads on 1.5 CPUs keep both busy more than one does); 0 when
// there is no limit ("max 100000") or the text is not a quota.
int cpu_max_cores(const std::string& cpu_max);

// cgroup v1: cpu.cfs_quota_us over cpu.cfs_period_us, rounded up; 0 when
// unlimited (quota -1) or nonsense.
int cfs_quota_cores(long long quota_us, long long period_us);

// The most limiting of the CPUs online, the affinity mask's count and the
// quota (each ignored when 0), at least 1.
int combine_core_limits(int online, int affinity, int quota);

// The process's affinity count right now (0 when unknown), and the
// quota of this process's cgroup and its ancestors (0 when none); read from
// the system each call.
int affinity_cores();
int cgroup_quota_cores();

}  // namespace attn::detail
