// The task runner behind every background job (task_runner.hpp): cancel,
// "newest replaces older", shutdown with a job running, an exception as an
// error outcome, progress, partial results and the wake-up. Every ordering
// is forced with latches, never with sleeps.
#include <doctest/doctest.h>

#include <atomic>
#include <future>
#include <stdexcept>
#include <string>
#include <thread>

#include "model/tasks/task_runner.hpp"

namespace {

// A one-shot signal between the test and a job (a latch of one).
struct RunnerLatch {
  std::promise<void> promise;
  std::shared_future<void> future = promise.get_future().share();
  void open() { promise.set_value(); }
  void wait() const { future.wait(); }
};

// A job that tells the test it started, then waits until cancelled or let go.
struct BlockingJob {
  RunnerLatch started, release;
  int run(int x, model::TaskControl& c) {
    started.open();
    while (!c.cancelled() && release.future.wait_for(std::chrono::milliseconds(1)) != std::future_status::ready) {
    }
    c.throw_if_cancelled();
    return x;
  }
};

}  // namespace

TEST_CASE("task runner: a job's result lands once, and the window is woken once for it") {
  model::TaskRunner<int, int> runner([](const int& x, model::TaskContext<int>&) { return x * 2; }, model::TaskPolicy::Queue);
  std::atomic<int> woken{0};
  runner.set_wake([&] { ++woken; });
  const std::uint64_t job = runner.submit(21);
  runner.wait_idle();
  CHECK(woken == 1);
  std::optional<model::TaskOutcome<int>> o = runner.take();
  REQUIRE(o);
  CHECK(o->done());
  CHECK(o->job == job);
  CHECK(*o->result == 42);
  CHECK_FALSE(runner.take());
}

TEST_CASE("task runner: a job that lands quietly does not wake the window") {
  model::TaskRunner<int, int> runner(
      [](const int& x, model::TaskContext<int>& c) {
        if (x == 0) c.land_quietly();
        return x;
      },
      model::TaskPolicy::Queue);
  std::atomic<int> woken{0};
  runner.set_wake([&] { ++woken; });
  runner.submit(0);
  runner.submit(1);
  runner.wait_idle();
  CHECK(woken == 1);  // only job 1's
  CHECK(runner.take());
  CHECK(runner.take());
}

TEST_CASE("task runner: cancel stops the running job and drops the waiting ones") {
  BlockingJob blocking;
  std::atomic<int> ran{0};
  model::TaskRunner<int, int> runner(
      [&](const int& x, model::TaskContext<int>& c) {
        ++ran;
        return x == 1 ? blocking.run(x, c) : x;
      },
      model::TaskPolicy::Queue);
  runner.submit(1);
  runner.submit(2);
  blocking.started.wait();
  CHECK(runner.busy());
  runner.cancel();
  CHECK_FALSE(runner.busy());  // the running job is cancelled, nothing waits
  runner.wait_idle();
  std::optional<model::TaskOutcome<int>> o = runner.take();
  REQUIRE(o);
  CHECK(o->cancelled());
  CHECK_FALSE(o->result);
  CHECK_FALSE(runner.take());
  CHECK(ran == 1);  // job 2 never ran
}

TEST_CASE("task runner: with Replace a newer job cancels the older, and only the newest lands") {
  BlockingJob blocking;
  model::TaskRunner<int, int> runner([&](const int& x, model::TaskContext<int>& c) { return x == 1 ? blocking.run(x, c) : x; },
                                   model::TaskPolicy::Replace);
  std::atomic<int> woken{0};
  runner.set_wake([&] { ++woken; });
  runner.submit(1);
  blocking.started.wait();
  runner.submit(2);
  runner.submit(3);  // replaces 2 before it starts
  runner.wait_idle();
  std::optional<model::TaskOutcome<int>> o = runner.take();
  REQUIRE(o);
  CHECK(o->done());
  CHECK(*o->result == 3);
  CHECK(o->job == 3);
  CHECK_FALSE(runner.take());  // neither the cancelled 1 nor the dropped 2
  CHECK(woken == 1);
}

TEST_CASE("task runner: with Latest the running job finishes and a newer one replaces only a waiting one") {
  BlockingJob blocking;
  model::TaskRunner<int, int> runner([&](const int& x, model::TaskContext<int>& c) { return x == 1 ? blocking.run(x, c) : x; },
                                   model::TaskPolicy::Latest);
  runner.submit(1);
  blocking.started.wait();
  runner.submit(2);
  runner.submit(3);
  CHECK(runner.waiting() == 1);
  blocking.release.open();
  runner.wait_idle();
  std::optional<model::TaskOutcome<int>> first = runner.take(), second = runner.take();
  REQUIRE(first);
  REQUIRE(second);
  CHECK(*first->result == 1);
  CHECK(*second->result == 3);
  CHECK_FALSE(runner.take());
}

TEST_CASE("task runner: shutting down with a job running cancels it and returns") {
  BlockingJob blocking;
  std::atomic<bool> saw_cancel{false};
  std::atomic<int> woken{0};
  {
    model::TaskRunner<int, int> runner(
        [&](const int& x, model::TaskContext<int>& c) {
          try {
            return blocking.run(x, c);
          } catch (const attn::Cancelled&) {
            saw_cancel = true;
            throw;
          }
        },
        model::TaskPolicy::Replace);
    runner.set_wake([&] { ++woken; });
    runner.submit(1);
    runner.submit(2);
    blocking.started.wait();
  }  // the destructor: never released, so it only returns if the cancel reached the job
  CHECK(saw_cancel);
  CHECK(woken == 0);  // nothing lands for a window that is closing
}

TEST_CASE("task runner: an exception in a job becomes an error outcome, and the runner goes on") {
  model::TaskRunner<int, int> runner(
      [](const int& x, model::TaskContext<int>&) -> int {
        if (x < 0) throw std::runtime_error("negative input " + std::to_string(x));
        return x;
      },
      model::TaskPolicy::Queue);
  runner.submit(-3);
  runner.submit(4);
  runner.wait_idle();
  std::optional<model::TaskOutcome<int>> bad = runner.take(), good = runner.take();
  REQUIRE(bad);
  CHECK(bad->failed());
  CHECK(bad->error == "negative input -3");
  CHECK_FALSE(bad->result);
  REQUIRE(good);
  CHECK(good->done());
  CHECK(*good->result == 4);
}

TEST_CASE("task runner: progress is seen while a job runs, and a linked core flag is cancelled with it") {
  RunnerLatch reported, seen;
  std::atomic<bool> core_cancel{false};
  model::TaskRunner<int, int> runner(
      [&](const int& x, model::TaskContext<int>& c) {
        c.link_cancel(core_cancel);
        c.report(3, 8, "heads");
        reported.open();
        seen.wait();
        while (!core_cancel) {  // what core code checks, not the runner's flag
        }
        return x;
      },
      model::TaskPolicy::Replace);
  CHECK(runner.progress().total == 0);
  runner.submit(1);
  reported.wait();
  const model::TaskProgress p = runner.progress();
  CHECK(p.done == 3);
  CHECK(p.total == 8);
  CHECK(p.text == "heads");
  CHECK(p.fraction() == doctest::Approx(0.375));
  seen.open();
  runner.cancel();
  runner.wait_idle();
  CHECK(runner.progress().total == 0);
  std::optional<model::TaskOutcome<int>> o = runner.take();
  REQUIRE(o);
  CHECK(o->cancelled());
  CHECK(*o->result == 1);  // it returned: what it made stays with the cancelled outcome
}

TEST_CASE("task runner: partial results land in order before the final one, each with its wake") {
  std::atomic<int> woken{0};
  model::TaskRunner<int, int> runner(
      [](const int& x, model::TaskContext<int>& c) {
        for (int i = 0; i < x; ++i) c.publish(int{i}, i % 2 == 0);  // odd ones quietly
        return -1;
      },
      model::TaskPolicy::Replace);
  runner.set_wake([&] { ++woken; });
  runner.submit(4);
  runner.wait_idle();
  for (int i = 0; i < 4; ++i) {
    std::optional<model::TaskOutcome<int>> o = runner.take();
    REQUIRE(o);
    CHECK(o->partial());
    CHECK(*o->result == i);
  }
  std::optional<model::TaskOutcome<int>> last = runner.take();
  REQUIRE(last);
  CHECK(last->done());
  CHECK(woken == 3);  // 0, 2 and the final result
}

TEST_CASE("task runner: a partial result of a cancelled job does not land") {
  RunnerLatch started, cancelled;
  std::atomic<bool> landed{true};
  model::TaskRunner<int, int> runner(
      [&](const int& x, model::TaskContext<int>& c) {
        started.open();
        cancelled.wait();
        landed = c.publish(int{x});
        return x;
      },
      model::TaskPolicy::Replace);
  runner.submit(1);
  started.wait();
  runner.cancel();
  cancelled.open();
  runner.wait_idle();
  CHECK_FALSE(landed);
}

TEST_CASE("task runner: the window woken by a job's result sees the runner idle, and what follows the landing runs after it") {
  model::TaskRunner<int, int>* self = nullptr;
  std::atomic<int> seen_in_next{-1};
  model::TaskRunner<int, int> runner(
      [&](const int& x, model::TaskContext<int>& c) {
        // Runs on the runner's thread once the result can be taken.
        c.after_landing([&] { seen_in_next = self->has_outcome() ? 1 : 0; });
        return x;
      },
      model::TaskPolicy::Replace);
  self = &runner;
  std::atomic<int> busy_when_woken{-1};
  runner.set_wake([&] { busy_when_woken = runner.busy() ? 1 : 0; });
  runner.submit(5);
  runner.wait_idle();  // also waits for what follows the landing
  CHECK(busy_when_woken == 0);
  CHECK(seen_in_next == 1);
  std::optional<model::TaskOutcome<int>> o = runner.take();
  REQUIRE(o);
  CHECK(*o->result == 5);
}

TEST_CASE("task runner: what follows a landing does not run for a job a newer one replaced") {
  BlockingJob blocking;
  std::atomic<int> followed{0};
  model::TaskRunner<int, int> runner(
      [&](const int& x, model::TaskContext<int>& c) {
        c.after_landing([&] { ++followed; });
        if (x == 1) {
          // Returns normally although replaced: its result must not land.
          blocking.started.open();
          while (!c.cancelled()) std::this_thread::yield();
        }
        return x;
      },
      model::TaskPolicy::Replace);
  runner.submit(1);
  blocking.started.wait();
  runner.submit(2);
  runner.wait_idle();
  CHECK(followed == 1);  // the newest job's only
  std::optional<model::TaskOutcome<int>> o = runner.take();
  REQUIRE(o);
  CHECK(*o->result == 2);
  CHECK_FALSE(runner.take());
}
