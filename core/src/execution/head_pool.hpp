// Internal: runs f(h) for every head, on the machine's cores when the heads
// are big enough to be worth a thread (a 16-token scene is faster on one).
#pragma once

#include <algorithm>
#include <functional>
#include <mutex>
#include <vector>

#include "attn/execution/progress.hpp"
#include "attn/scenario/scenario.hpp"
#include "execution/fresh_matrix.hpp"

namespace attn::detail {

// Scratch matrices lent to row blocks of the heads (on whichever thread)
// and given back, so the heads of one trace reuse one buffer per thread
// instead of faulting in fresh pages for each block. Lives as long as one
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
// f(0) .. f(items - 1), on up to `threads` threads: the waiting threads of
// the WorkerPool when they are free and at the caller's priority, else
// threads started for it when each item is worth a thread's start (about a
// millisecond of work), else the calling thread alone.
void for_each_item(int items, int threads, double work_per_item, const std::function<void(int)>& f);

// Rows per block of the products below: fixed, so results never depend on
// the number of threads.
constexpr Eigen::Index kRowBlock = 256;

// a · b in blocks of kRowBlock rows of `a`, on at most `max_threads`
// threads (0: no cap below set_compute_threads). Eigen's kernels may round
// differently for a differently shaped product, so the blocks are the same
// whether threaded or not, and the result is the same bit for bit on any
// number of threads.
template <class B>
Mat row_blocked_product(const Mat& a, const B& b, int max_threads) {
  const Eigen::Index n = a.rows();
  const int blocks = static_cast<int>((n + kRowBlock - 1) / kRowBlock);
  Mat out = fresh_matrix(n, b.cols());
  const double work = static_cast<double>(kRowBlock) * static_cast<double>(a.cols()) * static_cast<double>(b.cols());
  for_each_item(blocks, thread_count(work, blocks, max_threads), work, [&](int i) {
    const Eigen::Index r0 = i * kRowBlock, rows = std::min(kRowBlock, n - r0);
    out.middleRows(r0, rows).noalias() = a.middleRows(r0, rows) * b;
  });
  return out;
}

// Columns per tile of tiled_product.
constexpr Eigen::Index kColBlock = 128;

// a · b in tiles of kRowBlock rows × kColBlock columns, for products too
// wide for row blocks alone to keep many cores busy: the output product
// concat · W_O of a 512-token, 512-wide trace has 2 row blocks, so it ran on
// 2 cores of 16 while the rest of the trace ran on all of them; as 2 × 4
// tiles it has 8. The tiles are fixed, so the result is the same bit for
// bit on any number of threads. A column's row blocks run one after another,
// reading the same columns of b.
template <class B>
Mat tiled_product(const Mat& a, const B& b, int max_threads) {
  const Eigen::Index n = a.rows(), m = b.cols();
  const int row_blocks = static_cast<int>((n + kRowBlock - 1) / kRowBlock);
  const int col_blocks = static_cast<int>((m + kColBlock - 1) / kColBlock);
  Mat out = fresh_matrix(n, m);
  const double work = static_cast<double>(std::min(kRowBlock, n)) * static_cast<double>(a.cols()) *
                      static_cast<double>(std::min(kColBlock, m));
  const int tiles = row_blocks * col_blocks;
  for_each_item(tiles, thread_count(work, tiles, max_threads), work, [&](int t) {
    const Eigen::Index r0 = (t % row_blocks) * kRowBlock, c0 = (t / row_blocks) * kColBlock;
    const Eigen::Index rows = std::min(kRowBlock, n - r0), cols = std::min(kColBlock, m - c0);
    out.block(r0, c0, rows, cols).noalias() = a.middleRows(r0, rows) * b.middleCols(c0, cols);
  });
  return out;
}

// f(0) .. f(count - 1), one head a thread on every core the work may take
// (threads sized by d); a thread with no head left runs row blocks of the
// heads still running (help_board.hpp), so an edit of one head gets every
// core. Counts each in progress->heads_done; throws Cancelled once
// progress->cancel is set.
void run_heads(int count, const Dims& d, Progress* progress, const std::function<void(int)>& f);

}  // namespace attn::detail
