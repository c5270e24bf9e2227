// Data parallelism for code outside the core (the app's colour ranges and
// texels): the same threads the trace computes on, so nothing else in the
// project starts threads of its own for a split loop.
#pragma once

#include <functional>

namespace attn {

// f(0) .. f(items - 1), each once, returning when all have returned. Shared
// by at most `max_threads` threads (the caller's included), and only when
// an item is worth handing over: `work_per_item` is its cost in
// multiply-adds (a cell scanned or coloured costs about ten). Small work
// runs on the caller alone. Items may run in any order and at once: f must not share
// unguarded state between items.
void parallel_for(int items, int max_threads, double work_per_item, const std::function<void(int)>& f);

// The CPUs this process may use: the machine's, limited by its affinity
// mask (taskset, a container's cpuset) and its cgroup's CPU quota (rounded
// up), at least 1. Every thread count in the project starts from this.
int usable_cores();

}  // namespace attn
