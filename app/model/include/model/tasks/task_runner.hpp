// One primitive for every background job of the app (trace recompute, the
// texels that follow it, freeing old traces, file loading, lesson checks,
// training, autosave, export encoding), in the
// spirit of ImHex's TaskManager and Tracy's Worker: a job gets an immutable
// input on a job thread and hands back a result; the UI thread takes
// finished outcomes when it draws. Cancel is cooperative, "a newer job
// replaces an older one" is the runner's policy, the window is woken when
// something lands, and the destructor cancels and waits.
//
// A runner has no thread of its own: its jobs run one at a time as turns on
// the app's JobPool, so fourteen runners cost no more idle threads than one.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include "attn/compute/trace.hpp"
#include "model/tasks/job_pool.hpp"
#include "model/tasks/task_control.hpp"

namespace model {

enum class TaskPolicy {
  Replace,  // a new job cancels the running one and drops the waiting ones; only the newest lands
  Latest,   // a new job replaces a waiting one; the running one finishes and lands
  Queue,    // every job runs, in order, and lands
};

struct TaskOptions {
  JobPool* pool = nullptr;  // where the jobs run; null: JobPool::shared()
};

template <class Result>
struct TaskOutcome {
  enum class Kind { Done, Partial, Cancelled, Failed };
  Kind kind = Kind::Done;
  std::uint64_t job = 0;          // submit()'s number
  std::optional<Result> result;   // Done and Partial; a cancelled job that returned keeps its result
  std::string error;              // Failed: the exception's text
  bool done() const { return kind == Kind::Done; }
  bool partial() const { return kind == Kind::Partial; }
  bool cancelled() const { return kind == Kind::Cancelled; }
  bool failed() const { return kind == Kind::Failed; }
};

// What a running job sees of its runner: cancel, progress and partial results.
template <class Result>
class TaskContext : public TaskControl {
 public:
  // Hands over a result before the job ends (a preview, a batch of training
  // steps), moved from only when it lands. False when the job was cancelled:
  // `partial` is left as it was, for the job to carry into its final result.
  bool publish(Result&& partial, bool wake = true) { return publish_(partial, wake); }
  // Runs `next` on the runner's thread once the job's final outcome has
  // landed (not when a newer job replaced it): a step that must only start
  // after its input can be taken (TraceModel's follow-up).
  void after_landing(std::function<void()> next) { after_landing_ = std::move(next); }

 private:
  template <class, class>
  friend class TaskRunner;
  std::function<bool(Result&, bool)> publish_;
  std::function<void()> after_landing_;
};

template <class Input, class Result>
class TaskRunner {
 public:
  using Job = std::function<Result(const Input&, TaskContext<Result>&)>;
  using Outcome = TaskOutcome<Result>;

  TaskRunner(Job job, TaskPolicy policy, TaskOptions options = {})
      : job_(std::move(job)), policy_(policy), pool_(options.pool ? *options.pool : JobPool::shared()) {}
  // Cancels the running job and drops the waiting ones; returns once the
  // running job has noticed (a job that checks cancel never hangs it).
  ~TaskRunner() {
    std::deque<Waiting> dropped;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      quit_ = true;
      dropped.swap(waiting_);
      if (running_) running_->cancel();
    }
    pool_.withdraw(this);
  }
  TaskRunner(const TaskRunner&) = delete;
  TaskRunner& operator=(const TaskRunner&) = delete;

  // Called on the runner's thread each time an outcome lands (the window sets
  // Platform::wake), after it can be taken.
  void set_wake(std::function<void()> wake) {
    std::lock_guard<std::mutex> lock(mutex_);
    wake_ = std::move(wake);
  }

  // Returns the job's number (outcomes carry it). A runner never used
  // costs nothing.
  std::uint64_t submit(Input input) {
    std::deque<Waiting> dropped;  // freed outside the lock
    std::uint64_t number;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (policy_ != TaskPolicy::Queue) dropped.swap(waiting_);
      if (policy_ == TaskPolicy::Replace) {
        if (running_) running_->cancel();
        superseded_ = submitted_;  // everything before this one is out of date
        landed_.clear();
      }
      number = ++submitted_;
      waiting_.push_back({number, std::move(input)});
      if (!scheduled_) post_turn();
    }
    return number;
  }

  // Asks the running job to stop and drops the waiting ones. What already
  // landed stays (discard() drops it).
  void cancel() {
    std::deque<Waiting> dropped;
    std::lock_guard<std::mutex> lock(mutex_);
    dropped.swap(waiting_);
    if (running_) running_->cancel();
  }
  // Asks only the running job to stop; the waiting ones still run (a
  // pause of the running one that newer work should cut short).
  void cancel_running() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (running_) running_->cancel();
  }
  // Forgets the outcomes not yet taken.
  void discard() {
    std::lock_guard<std::mutex> lock(mutex_);
    landed_.clear();
  }

  // The oldest outcome not yet taken.
  std::optional<Outcome> take() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (landed_.empty()) return std::nullopt;
    Outcome out = std::move(landed_.front());
    landed_.pop_front();
    return out;
  }
  bool has_outcome() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return !landed_.empty();
  }
  // A finished result waits among the outcomes (not only cancels or errors).
  bool has_done() const {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const Outcome& o : landed_)
      if (o.done()) return true;
    return false;
  }
  // A job waits, or one runs and has not been cancelled.
  bool busy() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return !waiting_.empty() || (running_ && !running_->cancelled());
  }
  std::size_t waiting() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return waiting_.size();
  }
  // The running job's progress; zero when none runs.
  TaskProgress progress() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return running_ ? running_->progress() : TaskProgress{};
  }
  // Blocks until no job runs or waits (tests, headless pictures); the wake
  // of the last outcome has been called by then. A job that waits for
  // another runner runs that runner's waiting turn itself (JobPool::run_waiting).
  void wait_idle() {
    std::unique_lock<std::mutex> lock(mutex_);
    const auto idle = [&] { return waiting_.empty() && !running_ && !finishing_; };
    if (!JobPool::on_pool_thread()) return idle_.wait(lock, idle);
    while (!idle()) {
      if (scheduled_ && !in_turn_) {
        lock.unlock();
        const bool ran = pool_.run_waiting(this);
        lock.lock();
        if (ran) continue;
      }
      // Its turn runs on another thread (or is between the queue and running).
      idle_.wait_for(lock, std::chrono::milliseconds(1));
    }
  }

 private:
  // Under mutex_: one turn on the pool runs the next job.
  void post_turn() {
    scheduled_ = true;
    pool_.post(this, [this] { turn(); });
  }

  // A turn on a pool thread: the oldest waiting job, then the next turn if
  // more wait (behind whatever other runners posted meanwhile).
  void turn() {
    std::unique_lock<std::mutex> lock(mutex_);
    if (quit_ || waiting_.empty()) {
      scheduled_ = false;
      idle_.notify_all();
      return;
    }
    in_turn_ = true;
    const std::uint64_t number = waiting_.front().number;
    std::optional<Input> input(std::move(waiting_.front().input));
    waiting_.pop_front();
    TaskContext<Result> context;
    context.publish_ = [this, number, &context](Result& partial, bool wake) {
      return land(Outcome::Kind::Partial, number, context, wake, [&](Outcome& o) { o.result = std::move(partial); });
    };
    running_ = &context;
    lock.unlock();
    Outcome o = run(*input, context);
    context.forget_job();
    input.reset();  // the job's memory is freed here, not on the UI thread
    if (land(o.kind, number, context, !context.quiet(), [&](Outcome& kept) { kept = std::move(o); }, true) &&
        context.after_landing_)
      context.after_landing_();
    context.after_landing_ = nullptr;
    lock.lock();
    finishing_ = false;
    in_turn_ = false;
    if (!quit_ && !waiting_.empty())
      post_turn();
    else
      scheduled_ = false;
    idle_.notify_all();
  }

  Outcome run(const Input& input, TaskContext<Result>& context) {
    Outcome o;
    try {
      o.result.emplace(job_(input, context));
      o.kind = context.cancelled() ? Outcome::Kind::Cancelled : Outcome::Kind::Done;
    } catch (const attn::Cancelled&) {
      o.kind = Outcome::Kind::Cancelled;
    } catch (const std::exception& e) {
      o.kind = context.cancelled() ? Outcome::Kind::Cancelled : Outcome::Kind::Failed;
      o.error = e.what();
    } catch (...) {
      o.kind = context.cancelled() ? Outcome::Kind::Cancelled : Outcome::Kind::Failed;
      o.error = "unknown error";
    }
    return o;
  }

  // Keeps an outcome of job `number` for take() (`fill` makes it) unless a
  // newer job replaced that job or the runner is shutting down; a partial
  // result also not once cancelled. The check and the store are one step
  // under the lock, so nothing lands after a submit() that returned, and no
  // partial result after a cancel() that returned. The job's final outcome
  // (`ends_job`) also ends its running in that step: a window woken by it
  // sees the runner idle unless another job waits.
  template <class Fill>
  bool land(typename Outcome::Kind kind, std::uint64_t number, const TaskControl& context, bool wake, Fill fill,
            bool ends_job = false) {
    std::function<void()> call;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (ends_job) {
        running_ = nullptr;
        finishing_ = true;  // wait_idle() still waits for what follows the landing
      }
      if (quit_ || number <= superseded_) return false;
      if (kind == Outcome::Kind::Partial && context.cancelled()) return false;
      Outcome& o = landed_.emplace_back();
      fill(o);
      o.kind = kind;
      o.job = number;
      if (wake) call = wake_;
    }
    if (call) call();
    return true;
  }

  struct Waiting {
    std::uint64_t number;
    Input input;
  };

  const Job job_;
  const TaskPolicy policy_;
  JobPool& pool_;
  mutable std::mutex mutex_;
  std::condition_variable idle_;
  std::deque<Waiting> waiting_;
  std::deque<Outcome> landed_;
  TaskControl* running_ = nullptr;
  bool finishing_ = false;  // a job has ended; what follows its landing has not
  std::uint64_t submitted_ = 0, superseded_ = 0;
  bool quit_ = false;
  bool scheduled_ = false;  // a turn waits on the pool or runs
  bool in_turn_ = false;    // that turn runs
  std::function<void()> wake_;
};

}  // namespace model
