// The waiting threads (worker_pool.hpp). A job is posted under the mutex
// and the threads are woken; items are handed out by one atomic counter, so
// whoever is free takes the next. A thread that wakes after the last item was
// taken finds the job cleared, or no item left, and never calls a function
// whose caller has returned: the caller waits until no thread is inside.
#include "execution/worker_pool.hpp"
#include "attn/execution/parallel.hpp"
#include "attn/platform/cores.hpp"
#include "attn/platform/priority.hpp"
#include "attn/platform/thread_name.hpp"

#include <algorithm>
#include <chrono>


namespace attn::detail {

namespace {

// Watches `done` for up to 50 µs before the caller sleeps on a condition
// variable: waking a sleeping thread took tens of microseconds here, as long
// as a head of a 16-token trace, and a trace hands out several jobs in a row.
// Threads that find nothing for 50 µs sleep, so an idle program uses no CPU.
template <class Done>
bool spin_until(Done done) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(50);
  for (int i = 0;; ++i) {
    if (done()) return true;
    if ((i & 63) == 63 && std::chrono::steady_clock::now() > until) return false;
    // Sharing a core with the thread it waits for (the scheduler may put
    // them together), a spinning thread would hold it back: let it run.
    std::this_thread::yield();
  }
}

}  // namespace

WorkerPool& WorkerPool::shared() {
  static WorkerPool pool;  // joined at exit
  return pool;
}

WorkerPool::~WorkerPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    quit_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : threads_) t.join();
}

void WorkerPool::start() {
  nice_ = platform::this_threads_nice();  // the threads inherit it
  const unsigned cores = static_cast<unsigned>(usable_cores());
  for (unsigned i = 1; i < cores; ++i) threads_.emplace_back([this] { work(); });
}

void WorkerPool::work() {
  platform::name_this_thread("attn-work");
  unsigned long seen = 0;
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    lock.unlock();
    spin_until([&] { return generation_.load() != seen; });
    lock.lock();
    wake_.wait(lock, [&] { return quit_ || generation_ != seen; });
    if (quit_) return;
    seen = generation_;
    if (!f_ || joinable_ == 0) continue;  // over already, or enough threads on it
    const std::function<void(int)>& f = *f_;
    const int items = items_, caller = caller_core_;
    --joinable_;
    ++busy_;
    lock.unlock();
    if (caller >= 0 && platform::this_core() == caller) platform::move_this_thread_off(caller);  // 0.20 ms against 0.12 for a 64-token trace
    for (int i = next_++; i < items; i = next_++) f(i);
    lock.lock();
    if (--busy_ == 0) done_.notify_all();
  }
}

bool WorkerPool::try_run(int items, int threads, const std::function<void(int)>& f) {
  bool expected = false;
  if (!taken_.compare_exchange_strong(expected, true)) return false;
  std::call_once(started_, [this] { start(); });
  if (threads_.empty() || platform::this_threads_nice() != nice_) {
    taken_ = false;
    return false;
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    f_ = &f;
    items_ = items;
    caller_core_ = platform::this_core();
    joinable_ = std::min(threads - 1, static_cast<int>(threads_.size()));
    next_ = 0;
    ++generation_;
  }
  wake_.notify_all();
  // Whatever happens here, no thread may be left inside f once this returns.
  struct Finish {
    WorkerPool& pool;
    ~Finish() {
      pool.next_ = pool.items_;  // after an exception: hand out nothing more
      spin_until([&] { return pool.busy_.load() == 0; });
      std::unique_lock<std::mutex> lock(pool.mutex_);
      pool.done_.wait(lock, [&] { return pool.busy_ == 0; });
      pool.f_ = nullptr;  // a thread waking now finds nothing to do
      pool.joinable_ = 0;
      lock.unlock();
      pool.taken_ = false;
    }
  } finish{*this};
  for (int i = next_++; i < items; i = next_++) f(i);
  return true;
}

}  // namespace attn::detail
