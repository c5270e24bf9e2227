// Internal: the core's waiting threads, for parallel work too small to pay
// for starting threads. Starting a thread costs tens of microseconds, as
// much as a head of a 64-token trace, so small traces ran on one core; these
// threads sleep between jobs, and a job reaches them in microseconds.
//
// They run at the priority of the thread that first used them. A caller at
// another priority (the app's background recompute runs below the window's,
// so that frames stay smooth) is refused, and starts threads of its own,
// which inherit its priority.
#pragma once

#include <atomic>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace attn::detail {

class WorkerPool {
 public:
  // The process's pool: machine cores − 1 threads, started on first use.
  static WorkerPool& shared();
  ~WorkerPool();

  // f(0) .. f(items − 1) on the calling thread and at most threads − 1 of
  // the pool's, returning when every call has returned. False, with nothing
  // run, when another caller's job holds the pool or the caller's priority
  // is not the pool's.
  bool try_run(int items, int threads, const std::function<void(int)>& f);

 private:
  WorkerPool() = default;
  void start();
  void work();

  std::atomic<bool> taken_{false};  // a caller's job holds the pool (try_run may nest: not a mutex)
  std::once_flag started_;
  int nice_ = 0;  // the priority the threads run at
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  // The job, under mutex_: the function (null between jobs), its items, the
  // threads that may still join it, and the threads inside it.
  // busy_ and generation_ change under mutex_ but are atomics, so that a
  // thread can watch them for a moment without the lock (see spin_until).
  const std::function<void(int)>* f_ = nullptr;
  int items_ = 0, joinable_ = 0;
  int caller_core_ = -1;  // where the caller runs: a thread found there moves off it
  std::atomic<int> busy_{0};
  std::atomic<unsigned long> generation_{0};
  std::atomic<int> next_{0};
  bool quit_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace attn::detail
