// Following and stopping a long computation from another thread, and the
// computation's own resources: how many threads it may use, and the large
// storage it keeps for the next one. The execution room's public face
// (compute_trace takes a Progress; the app's jobs link their cancel to it).
#pragma once

#include <atomic>
#include <stdexcept>

namespace attn {

// Lets another thread follow a long computation and stop it: heads_done
// counts finished heads; setting cancel makes the computation throw
// Cancelled at the next head.
struct Progress {
  std::atomic<bool> cancel{false};
  std::atomic<int> heads_done{0};
  int max_threads = 0;  // > 0: use at most this many threads (leave a core to the window)
};
struct Cancelled : std::runtime_error {
  Cancelled() : std::runtime_error("computation cancelled") {}
};

// How many threads a trace's computation may give the heads: 0 (the default) uses
// the machine's cores. The result is the same bit for bit either way; tests
// set 1 to prove it.
void set_compute_threads(int n);

// Large matrices a trace lets go of (8 MB or more: a long scene's scores)
// keep their storage for the next computation of the same sizes, which
// writes over it instead of faulting in fresh pages; it waits at most 1 GB
// and 2 seconds. This frees it now (a program that has nothing to compute).
void release_recycled_storage();

}  // namespace attn
