// The part of a running task that both threads touch: its cancel flag and
// its progress. The UI thread cancels and reads progress through the
// TaskRunner; the job checks and reports through its TaskContext. Core code
// keeps its own cancel flags (attn::Progress, attn::io::LessonProgress), so
// a job links them here and a cancel reaches them too.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

namespace model {

struct TaskProgress {
  int done = 0, total = 0;  // units of work (heads, steps, frames); total 0 until known
  std::string text;
  double fraction() const { return total > 0 ? std::min(1.0, static_cast<double>(done) / total) : 0.0; }
};

class TaskControl {
 public:
  TaskControl() = default;
  TaskControl(const TaskControl&) = delete;
  TaskControl& operator=(const TaskControl&) = delete;

  bool cancelled() const { return cancelled_; }
  // Throws attn::Cancelled once cancelled: the job ends as a cancelled outcome.
  void throw_if_cancelled() const;
  // Waits up to `limit` and returns early (true) once cancelled: a pause a
  // newer job may cut short.
  bool wait_cancelled_for(std::chrono::milliseconds limit) const;
  // A cancel also sets `flag` (core's own); set at once when already cancelled.
  void link_cancel(std::atomic<bool>& flag);

  // The job's final outcome lands without waking the window (nothing in it
  // for the window to show, such as an autosave copy deleted).
  void land_quietly() { quiet_ = true; }
  bool quiet() const { return quiet_; }

  void report(int done, int total, std::string text = {});
  // Progress counted by code that cannot call report() (core counts heads
  // in its own atomics): read whenever the UI asks.
  void report_from(std::function<TaskProgress()> gauge);
  TaskProgress progress() const;

  // Called by the runner: cancel() under its lock; forget_job() when the
  // job has returned (its gauge and flags lived on its stack).
  void cancel();
  void forget_job();

 private:
  std::atomic<bool> cancelled_{false};
  bool quiet_ = false;  // the job's thread only
  mutable std::mutex mutex_;
  mutable std::condition_variable cancel_cv_;
  std::vector<std::atomic<bool>*> linked_;
  TaskProgress reported_;
  std::function<TaskProgress()> gauge_;
};

}  // namespace model
