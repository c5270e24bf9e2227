// The threads every TaskRunner's jobs run on: one pool for the whole app,
// as ImHex's TaskManager runs every task on one shared set of threads. A
// runner's policy (replace, latest, queue) needs no thread of its own, only
// a turn: the runner posts one turn, which runs its next job and posts
// the following one.
//
// Threads start when a turn finds none free, at most `max_threads` of them
// (the usable cores, at least two). One stays parked when nothing is left;
// the others end after `linger` with nothing to do. An idle app therefore
// keeps one job thread, however many runners it has.
//
// Every job thread runs below the window's priority: with every core busy,
// a frame still gets its core when it wants one. (A lowered thread cannot
// raise itself again, so there is one priority for all of them.)
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace model {

class JobPool {
 public:
  // The app's pool, started on first use and never destroyed: a job still
  // running when the process exits must not find it gone.
  static JobPool& shared();
  JobPool(int max_threads, std::chrono::milliseconds linger);
  // Waits for every thread to end. Owners withdraw before (their turns
  // would otherwise be dropped unrun).
  ~JobPool();
  JobPool(const JobPool&) = delete;
  JobPool& operator=(const JobPool&) = delete;

  // Runs `turn` on a pool thread once one is free, after the turns posted
  // before it.
  void post(const void* owner, std::function<void()> turn);
  // Runs the owner's oldest waiting turn on the calling thread, if one
  // waits: a job that waits for another runner (TraceModel's recompute
  // waits for its releaser) does its turn itself, instead of waiting for
  // a thread that jobs like it may all be holding. False when none waits.
  bool run_waiting(const void* owner);
  // Drops the owner's waiting turns and returns once none of its turns runs
  // (on another thread: a turn that withdraws its own owner is not waited for).
  void withdraw(const void* owner);

  // Threads alive now (tests; the idle thread count).
  int threads() const;
  // The calling thread is one of a pool's.
  static bool on_pool_thread();

 private:
  struct Turn {
    const void* owner;
    std::function<void()> run;
  };
  void work();
  void run_turn(Turn& turn, std::unique_lock<std::mutex>& lock);  // called and returns with lock held

  const int max_threads_;
  const std::chrono::milliseconds linger_;
  const int window_nice_;  // the priority of the thread that made the pool (the window's)
  mutable std::mutex mutex_;
  std::condition_variable wake_, changed_;
  std::deque<Turn> waiting_;
  std::vector<const void*> running_;  // owners whose turn runs now, once each
  std::vector<std::thread> threads_;
  std::vector<std::thread::id> ended_;  // threads that lingered and returned, to be joined
  int alive_ = 0, parked_ = 0;
  bool quit_ = false;
};

}  // namespace model
