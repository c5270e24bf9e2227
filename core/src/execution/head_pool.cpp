// Head parallelism: threads take heads (or other items, such as row blocks
// of the output product) from a shared counter, so uneven items balance.
// Eigen's own kernels stay single-threaded: a head runs its own row blocks
// with the help of the head loop's threads that have no head left
// (help_board.hpp), so two levels of threads never fight for two cores.
#include "execution/head_pool.hpp"
#include "attn/execution/parallel.hpp"

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

#include "execution/help_board.hpp"
#include "execution/warm_heap.hpp"
#include "execution/worker_pool.hpp"

namespace attn::detail {

namespace {
std::atomic<int> thread_cap{0};  // 0: the machine's cores
}  // namespace

namespace {
// Multiply-adds an item needs before threads pay: about 10 µs for the
// waiting threads of the WorkerPool, about a millisecond for new ones.
constexpr double kPoolWork = 1e4, kStartWork = 2e6;
}  // namespace

int thread_count(double work_per_item, int items, int max_threads) {
  if (work_per_item < kPoolWork || items < 2) return 1;
  const int cap = thread_cap.load();
  unsigned cores = static_cast<unsigned>(cap > 0 ? cap : usable_cores());  // usable_cores reads the system once
  if (max_threads > 0) cores = std::min(cores, static_cast<unsigned>(max_threads));
  return static_cast<int>(std::min<unsigned>(cores, static_cast<unsigned>(items)));
}

void for_each_item(int items, int threads, double work_per_item, const std::function<void(int)>& f) {
  keep_heap_warm();  // every product of a trace runs in here
  // Inside a head of run_heads: the blocks go to the head loop's threads
  // that have no head left (help_board.hpp), whatever `threads` says.
  if (HelpBoard* board = HelpBoard::current(); board && items > 1) {
    board->share(items, f);
    return;
  }
  if (threads > 1 && WorkerPool::shared().try_run(items, threads, f)) return;
  if (threads <= 1 || work_per_item < kStartWork) {
    for (int i = 0; i < items; ++i) f(i);
    return;
  }
  std::atomic<int> next{0};
  auto worker = [&] {
    for (int i = next++; i < items; i = next++) f(i);
  };
  std::vector<std::thread> pool;
  for (int i = 1; i < threads; ++i) pool.emplace_back(worker);
  worker();
  for (std::thread& t : pool) t.join();
}

namespace {
double head_work(const Dims& d) {
  return static_cast<double>(d.n_q) * d.n_k * std::max(d.d_k, d.d_v) +
         static_cast<double>(d.n_q + d.n_k) * d.d_model * d.d_k;
}
}  // namespace

void run_heads(int count, const Dims& d, Progress* progress, const std::function<void(int)>& f) {
  const int max_threads = progress ? progress->max_threads : 0;
  const double work = head_work(d);
  std::atomic<bool> stopped{false};
  auto one_head = [&](int i) {
    if (progress && progress->cancel.load()) {
      stopped = true;  // the remaining heads are skipped, not computed
      return;
    }
    f(i);
    if (progress) ++progress->heads_done;
  };
  // Every core this work may take, whether or not there is a head for each:
  // after the heads come one item per extra thread, in which a thread with
  // no head left helps the heads still running (help_board.hpp). Items are
  // handed out in order, so a thread reaches a help item only once every
  // head has been taken.
  const int threads = count > 0 ? thread_count(work, 1 << 20, max_threads) : 1;
  if (threads <= 1) {
    for (int i = 0; i < count; ++i) one_head(i);
  } else {
    HelpBoard board(count);
    for_each_item(count + threads - 1, threads, work, [&](int i) {
      if (i >= count) return board.help();
      struct Done {
        HelpBoard& b;
        ~Done() { b.head_done(); }  // even if the head threw: helpers must not wait for it
      } done{board};
      const HelpBoard::Scope scope(&board);
      one_head(i);
    });
  }
  if (stopped) throw Cancelled();
}

}  // namespace attn::detail

namespace attn {

void set_compute_threads(int n) { detail::thread_cap.store(std::max(0, n)); }

}  // namespace attn
