// Internal: runs f(h) for every head, on the machine's cores when the heads
// are big enough to be worth a thread (a 16-token scene is faster on one).
#pragma once

#include <functional>

#include "attn/trace.hpp"

namespace attn::detail {

// max_threads > 0 caps the threads (below the set_compute_threads cap).
void for_each_head(const Dims& d, const std::function<void(int)>& f, int max_threads = 0);

// f(0) .. f(count - 1) as for_each_head (threads sized by d), counting each
// in progress->heads_done; throws Cancelled once progress->cancel is set.
void run_heads(int count, const Dims& d, Progress* progress, const std::function<void(int)>& f);

}  // namespace attn::detail
