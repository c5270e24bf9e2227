// Internal: runs f(h) for every head, on the machine's cores when the heads
// are big enough to be worth a thread (a 16-token scene is faster on one).
#pragma once

#include <functional>
#include <mutex>
#include <vector>

#include "attn/trace.hpp"

namespace attn::detail {

// Scratch matrices lent to heads (on whichever thread) and given back, so the
// heads of one trace reuse one buffer per thread instead of faulting in fresh
// n×n pages each: at 2048 tokens that is 33 MB a head. Lives as long as one
// computation, so nothing is kept afterwards.
class ScratchPool {
 public:
  Mat take() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (free_.empty()) return Mat();
    Mat m = std::move(free_.back());
    free_.pop_back();
    return m;
  }
  void give(Mat m) {
    std::lock_guard<std::mutex> lock(mutex_);
    free_.push_back(std::move(m));
  }

 private:
  std::mutex mutex_;
  std::vector<Mat> free_;
};

// Threads worth giving `items` items of `work_per_item` multiply-adds each:
// at most the cores (or the set_compute_threads cap, or max_threads > 0).
int thread_count(double work_per_item, int items, int max_threads = 0);
// f(0) .. f(items - 1), on `threads` threads.
void for_each_item(int items, int threads, const std::function<void(int)>& f);

// max_threads > 0 caps the threads (below the set_compute_threads cap).
void for_each_head(const Dims& d, const std::function<void(int)>& f, int max_threads = 0);

// f(0) .. f(count - 1) as for_each_head (threads sized by d), counting each
// in progress->heads_done; throws Cancelled once progress->cancel is set.
void run_heads(int count, const Dims& d, Progress* progress, const std::function<void(int)>& f);

}  // namespace attn::detail
