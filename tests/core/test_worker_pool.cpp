// The core's waiting threads (core/src/worker_pool.hpp): every item of every
// job runs exactly once, whichever thread takes it; a job started from
// inside a job, or by a thread at another priority, is refused (and
// for_each_item then runs it another way); an exception leaves the pool
// usable. No timing: the checks count calls.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#if defined(__linux__)
#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include "attn/execution/parallel.hpp"
#include "execution/head_pool.hpp"
#include "execution/worker_pool.hpp"

using attn::detail::WorkerPool;

TEST_CASE("worker pool: each item of each job runs exactly once") {
  WorkerPool& pool = WorkerPool::shared();
  for (int job = 0; job < 500; ++job) {
    const int items = 1 + job % 37;
    std::vector<std::atomic<int>> runs(static_cast<size_t>(items));
    std::atomic<int> total{0};
    const bool ran = pool.try_run(items, 2 + job % 3, [&](int i) {
      ++runs[static_cast<size_t>(i)];
      ++total;
    });
    REQUIRE(ran);
    int wrong = 0;
    for (const auto& r : runs) wrong += r.load() != 1;
    INFO("job ", job, " with ", items, " items");
    CHECK(wrong == 0);
    CHECK(total.load() == items);
  }
}

TEST_CASE("worker pool: a job from inside a job is refused, and for_each_item still runs every item") {
  std::atomic<int> inner{0}, refused{0};
  REQUIRE(WorkerPool::shared().try_run(4, 2, [&](int) {
    if (!WorkerPool::shared().try_run(3, 2, [&](int) { ++inner; })) ++refused;
    attn::detail::for_each_item(3, 2, 1e5, [&](int) { ++inner; });  // falls back to this thread
  }));
  CHECK(refused.load() == 4);
  CHECK(inner.load() == 12);
}

TEST_CASE("worker pool: an exception reaches the caller and the pool goes on working") {
  WorkerPool& pool = WorkerPool::shared();
  std::atomic<int> ran{0};
  CHECK_THROWS_AS(pool.try_run(50, 2,
                               [&](int i) {
                                 ++ran;
                                 if (i == 0) throw std::runtime_error("item 0");
                               }),
                  std::runtime_error);
  CHECK(ran.load() >= 1);
  std::atomic<int> after{0};
  CHECK(pool.try_run(10, 2, [&](int) { ++after; }));
  CHECK(after.load() == 10);
}

#if defined(__linux__)
TEST_CASE("worker pool: a thread at another priority is refused and runs its items itself") {
  WorkerPool::shared();  // started at this thread's priority
  REQUIRE(WorkerPool::shared().try_run(2, 2, [](int) {}));
  std::atomic<int> ran{0};
  bool pooled = true;
  std::thread lower([&] {
    setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), 5);
    pooled = WorkerPool::shared().try_run(8, 2, [&](int) { ++ran; });
    attn::detail::for_each_item(8, 2, 1e5, [&](int) { ++ran; });
  });
  lower.join();
  CHECK_FALSE(pooled);
  CHECK(ran.load() == 8);
}
#endif

#if defined(__linux__)
TEST_CASE("worker pool: a pool thread never runs items on its caller's core, wherever the caller moves") {
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  REQUIRE(sched_getaffinity(0, sizeof allowed, &allowed) == 0);
  std::vector<int> cores;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &allowed)) cores.push_back(c);
  if (cores.size() < 2) {
    MESSAGE("one core: nothing to check");
    return;
  }
  // The caller sits on one core, then on another (where the pool thread
  // went the first time): items the pool thread runs must be elsewhere.
  std::thread caller([&] {
    for (int round = 0; round < 4; ++round) {
      const int core = cores[static_cast<size_t>(round % 2)];
      cpu_set_t one;
      CPU_ZERO(&one);
      CPU_SET(core, &one);
      REQUIRE(pthread_setaffinity_np(pthread_self(), sizeof one, &one) == 0);
      const std::thread::id me = std::this_thread::get_id();
      std::atomic<int> by_pool{0}, on_callers_core{0};
      REQUIRE(WorkerPool::shared().try_run(40, 2, [&](int) {
        if (std::this_thread::get_id() != me) {
          ++by_pool;
          on_callers_core += sched_getcpu() == core;
        }
        std::this_thread::sleep_for(std::chrono::microseconds(200));  // so that both take items
      }));
      INFO("round ", round, " on core ", core, ": ", by_pool.load(), " items by the pool thread");
      CHECK(by_pool.load() > 0);
      CHECK(on_callers_core.load() == 0);
    }
  });
  caller.join();
}
#endif

// attn::parallel_for, the app's way onto these threads (colour ranges, texels).
TEST_CASE("parallel_for: every item runs once, on more than one thread when the work is worth it, and never for none") {
  for (const double work : {1.0, 1e5, 1e7}) {
    INFO("work per item " << work);
    std::vector<std::atomic<int>> calls(64);
    std::mutex mutex;
    std::vector<std::thread::id> threads;
    std::atomic<int> seen{0};
    attn::parallel_for(64, 2, work, [&](int i) {
      ++calls[static_cast<size_t>(i)];
      {
        std::lock_guard<std::mutex> lock(mutex);
        if (std::find(threads.begin(), threads.end(), std::this_thread::get_id()) == threads.end())
          threads.push_back(std::this_thread::get_id());
        seen = static_cast<int>(threads.size());
      }
      // The first item waits (5 s at most) for a second thread to take
      // another: it must, when the work is worth sharing.
      if (i == 0 && work >= 1e7)
        for (int k = 0; k < 5000 && seen < 2; ++k) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    });
    for (size_t i = 0; i < calls.size(); ++i) {
      INFO("item " << i);
      CHECK(calls[i].load() == 1);
    }
    if (work < 1e4) CHECK(threads.size() == 1);  // too small to share
    if (work >= 1e7 && std::thread::hardware_concurrency() >= 2) CHECK(threads.size() == 2);
  }
  bool called = false;
  attn::parallel_for(0, 2, 1e9, [&](int) { called = true; });
  CHECK_FALSE(called);
}
