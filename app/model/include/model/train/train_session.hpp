// A training run for the Train view: the attn::train::Trainer as a job on a
// TaskRunner, so the window never waits for a step, and on the UI side the
// curves and the history of snapshots the job has published so far.
// The job only ever hands over finished values (losses, snapshots with their
// own copy of the weights) as partial results; the UI reads its own copies,
// taken by poll(), so drawing never touches what the job is changing.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "attn/train/trainer.hpp"
#include "model/tasks/task_runner.hpp"

namespace model {

// The model as it was after `step` steps, with how well it did then.
struct TrainSnapshot {
  int step = 0;
  double loss = 0;                     // training loss of that step's batch
  attn::train::Evaluation held_out;    // loss and accuracy on the held-out set
  std::vector<attn::train::HeadScore> heads;
  std::shared_ptr<const attn::train::Model> model;
};

class TrainSession {
 public:
  // A snapshot every this many steps; once there are kMaxSnapshots, every
  // other one is dropped (the first and the newest stay), so a long run
  // keeps an evenly spaced history in bounded memory.
  static constexpr int kSnapshotEvery = 10;
  static constexpr size_t kMaxSnapshots = 160;

  TrainSession();
  ~TrainSession() = default;  // stops the run after the step it is on
  TrainSession(const TrainSession&) = delete;
  TrainSession& operator=(const TrainSession&) = delete;

  // Called from the worker when it has published something (wakes the window).
  void set_on_progress(std::function<void()> wake);

  // Stops any run and starts from fresh weights (step 0, one snapshot).
  // Returns "" or why the settings cannot train (then nothing changes).
  std::string reset(const attn::train::TrainConfig& config, int max_steps);
  // Continues from saved weights (an opened model file).
  std::string resume(const attn::train::TrainConfig& config, attn::train::Model model, int steps, int max_steps);
  void start();  // runs until pause() or max_steps
  void pause();
  void set_max_steps(int max_steps);
  bool running() const { return runner_.busy(); }
  bool has_run() const { return trainer_ != nullptr; }

  // UI thread: takes what the worker published since the last call.
  // Returns true when anything changed.
  bool poll();
  // Blocks until the worker has stopped (max_steps reached or paused), then
  // polls: headless screenshots and tests.
  void wait_stopped();

  const attn::train::TrainConfig& config() const { return config_; }
  int max_steps() const { return max_steps_; }
  int steps() const { return losses_.empty() ? start_step_ : start_step_ + static_cast<int>(losses_.size()); }
  const std::vector<double>& losses() const { return losses_; }  // one per step since the start
  int first_step() const { return start_step_; }               // the step losses_[0] came after
  const std::vector<TrainSnapshot>& snapshots() const { return snapshots_; }
  const attn::train::Batch& held_out() const { return held_out_; }
  std::uint64_t generation() const { return generation_; }  // bumped by poll() when anything changed
  // Why the last run stopped by itself before max_steps ("" when it did not):
  // a loss that is no longer a finite number ends the run rather than
  // drawing NaN; the weights before that step stay.
  const std::string& problem() const { return problem_; }

 private:
  // What the job hands back: the steps since its last hand-over.
  struct Steps {
    std::vector<double> losses;
    std::vector<TrainSnapshot> snapshots;
    std::string problem;
  };
  void stop_worker();
  Steps train(attn::train::Trainer& trainer, TaskContext<Steps>& task) const;
  static TrainSnapshot snapshot_of(const attn::train::Trainer& trainer, double loss);
  void thin_snapshots();

  attn::train::TrainConfig config_;
  std::unique_ptr<attn::train::Trainer> trainer_;  // the job's while it runs
  attn::train::Batch held_out_;
  int max_steps_ = 0;
  int start_step_ = 0;

  // UI-side copies.
  std::vector<double> losses_;
  std::vector<TrainSnapshot> snapshots_;
  std::uint64_t generation_ = 0;
  std::string problem_;

  // Read by the job at each step: set_max_steps() may move the end of a running job.
  std::atomic<int> max_steps_shared_{0};
  // The job's input is the trainer it steps (the UI leaves it alone while
  // the job runs); pause() is the task's cancel.
  TaskRunner<attn::train::Trainer*, Steps> runner_;
};

}  // namespace model
