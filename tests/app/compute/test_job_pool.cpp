// The job threads every TaskRunner shares (job_pool.hpp): many runners
// busy at once never hold more threads than the pool's size, the threads
// beyond one end once idle, a job that waits for another runner does not
// deadlock a full pool, and an idle app's own threads, counted from
// /proc/self/task, stay within cores + 2. Orderings are forced with
// latches; only the lingering is waited for, with a generous limit.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "attn/execution/parallel.hpp"
#include "model/tasks/job_pool.hpp"
#include "model/tasks/task_runner.hpp"

namespace {

// The threads of this process, as the kernel lists them, and their names.
std::vector<std::string> process_thread_names() {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator("/proc/self/task")) {
    std::ifstream comm(entry.path() / "comm");
    std::string name;
    std::getline(comm, name);
    names.push_back(name);
  }
  return names;
}

// Polls `done` every 10 ms for up to `limit`.
template <class Done>
bool within(std::chrono::milliseconds limit, Done done) {
  const auto until = std::chrono::steady_clock::now() + limit;
  while (!done()) {
    if (std::chrono::steady_clock::now() > until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return true;
}

// Jobs that hold their thread until the test lets them go, counting how
// many hold one at the same time.
struct HeldJobs {
  std::promise<void> go;
  std::shared_future<void> released = go.get_future().share();
  std::atomic<int> holding{0}, most{0}, started{0};
  int run(int x) {
    const int now = ++holding;
    for (int m = most; now > m && !most.compare_exchange_weak(m, now);) {
    }
    ++started;
    released.wait();
    --holding;
    return x;
  }
};

}  // namespace

TEST_CASE("job pool: twelve busy runners share the pool's threads and the extra threads end once idle") {
  model::JobPool pool(3, std::chrono::milliseconds(20));
  HeldJobs held;
  std::vector<std::unique_ptr<model::TaskRunner<int, int>>> runners;
  for (int i = 0; i < 12; ++i) {
    runners.push_back(std::make_unique<model::TaskRunner<int, int>>(
        [&](const int& x, model::TaskContext<int>&) { return held.run(x); }, model::TaskPolicy::Queue,
        model::TaskOptions{&pool}));
    runners.back()->submit(i);
  }
  REQUIRE(within(std::chrono::seconds(10), [&] { return held.started == 3; }));
  CHECK(pool.threads() == 3);
  CHECK(held.holding == 3);  // the other nine wait for a thread, none starts one
  held.go.set_value();
  for (auto& r : runners) r->wait_idle();
  CHECK(held.started == 12);
  CHECK(held.most == 3);
  for (int i = 0; i < 12; ++i) {
    std::optional<model::TaskOutcome<int>> o = runners[i]->take();
    REQUIRE(o);
    CHECK(*o->result == i);
  }
  // Two of the three linger 20 ms and end; one stays parked for the next job.
  CHECK(within(std::chrono::seconds(10), [&] { return pool.threads() == 1; }));
}

TEST_CASE("job pool: a job that waits for another runner runs that runner's turn itself when every thread is taken") {
  model::JobPool pool(1, std::chrono::milliseconds(20));
  model::TaskRunner<int, int> inner([](const int& x, model::TaskContext<int>&) { return x + 1; }, model::TaskPolicy::Queue,
                                    model::TaskOptions{&pool});
  model::TaskRunner<int, int> outer(
      [&](const int& x, model::TaskContext<int>&) {
        inner.submit(x);   // queued behind this very turn on the pool's one thread
        inner.wait_idle(); // would wait forever for that thread
        return inner.take()->result.value() * 10;
      },
      model::TaskPolicy::Queue, model::TaskOptions{&pool});
  outer.submit(4);
  outer.wait_idle();
  std::optional<model::TaskOutcome<int>> o = outer.take();
  REQUIRE(o);
  REQUIRE(o->done());
  CHECK(*o->result == 50);
}

TEST_CASE("job pool: a runner destroyed with turns waiting drops them and the pool stays usable") {
  model::JobPool pool(1, std::chrono::milliseconds(20));
  HeldJobs held;
  std::atomic<int> ran{0};
  auto first = std::make_unique<model::TaskRunner<int, int>>(
      [&](const int& x, model::TaskContext<int>&) { return held.run(x); }, model::TaskPolicy::Queue, model::TaskOptions{&pool});
  auto second = std::make_unique<model::TaskRunner<int, int>>(
      [&](const int& x, model::TaskContext<int>&) { return ++ran + x; }, model::TaskPolicy::Queue, model::TaskOptions{&pool});
  first->submit(1);
  REQUIRE(within(std::chrono::seconds(10), [&] { return held.started == 1; }));
  second->submit(1);
  second.reset();  // its turn waits behind first's: dropped, never run
  held.go.set_value();
  first->wait_idle();
  CHECK(ran == 0);
  model::TaskRunner<int, int> third([](const int& x, model::TaskContext<int>&) { return x; }, model::TaskPolicy::Queue,
                                    model::TaskOptions{&pool});
  third.submit(7);
  third.wait_idle();
  CHECK(*third.take()->result == 7);
}

TEST_CASE("job pool: an idle app holds at most cores + 2 threads of its own however many runners it has") {
  // The shared pool, as the app uses it: sixteen runners (the app has
  // fourteen) all busy at once, then idle.
  HeldJobs held;
  {
    std::vector<std::unique_ptr<model::TaskRunner<int, int>>> runners;
    for (int i = 0; i < 16; ++i) {
      runners.push_back(std::make_unique<model::TaskRunner<int, int>>(
          [&](const int& x, model::TaskContext<int>&) {
            // The core's compute threads start too, as a trace recompute's do.
            std::atomic<int> sum{0};
            attn::parallel_for(64, attn::usable_cores(), 1e9, [&](int k) { sum += k; });
            return held.run(x + sum - 2016);
          },
          model::TaskPolicy::Queue));
      runners.back()->submit(i);
    }
    const int pool_size = std::max(2, attn::usable_cores());
    REQUIRE(within(std::chrono::seconds(10), [&] { return held.started == pool_size; }));
    std::vector<std::string> names = process_thread_names();
    const auto jobs = std::count(names.begin(), names.end(), "attn-job");
    CHECK(jobs == pool_size);  // named, and no more of them than the pool's size
    held.go.set_value();
    for (auto& r : runners) r->wait_idle();
  }
  // The pool's threads beyond one end two seconds after their last job.
  CHECK(within(std::chrono::seconds(15), [] { return model::JobPool::shared().threads() == 1; }));
  const int limit = attn::usable_cores() + 2;
  std::vector<std::string> names;
  // A thread that has just ended may still be listed for a moment.
  const bool within_limit = within(std::chrono::seconds(5), [&] {
    names = process_thread_names();
    return static_cast<int>(names.size()) <= limit;
  });
  std::string listed;
  for (const std::string& n : names) listed += n + " ";
  INFO("threads at idle: " << names.size() << " (" << listed << "), limit cores + 2 = " << limit);
  CHECK(within_limit);
  CHECK(std::count(names.begin(), names.end(), "attn-job") == 1);
}
