// A training run for the Train view: the attn::train::Trainer on a worker
// thread, so the window never waits for a step, and on the UI side the
// curves and the history of snapshots the worker has published so far.
// The worker only ever hands over finished values (a loss, a snapshot with
// its own copy of the weights), under a lock; the UI reads its own copies,
// taken by poll(), so drawing never touches what the worker is changing.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "attn/train/trainer.hpp"

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

  TrainSession() = default;
  ~TrainSession();
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
  bool running() const { return running_; }
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
  void stop_worker();
  void worker_loop();
  void publish_snapshot(const attn::train::Trainer& trainer, double loss);  // worker thread, under no lock
  void thin_snapshots();

  attn::train::TrainConfig config_;
  std::unique_ptr<attn::train::Trainer> trainer_;  // owned by the worker while it runs
  attn::train::Batch held_out_;
  int max_steps_ = 0;
  int start_step_ = 0;

  // UI-side copies.
  std::vector<double> losses_;
  std::vector<TrainSnapshot> snapshots_;
  std::uint64_t generation_ = 0;
  std::string problem_;

  // Shared with the worker.
  std::mutex mutex_;
  std::vector<double> pending_losses_;
  std::vector<TrainSnapshot> pending_snapshots_;
  std::string pending_problem_;
  std::atomic<bool> running_{false};
  std::atomic<bool> stop_{false};
  std::atomic<int> max_steps_shared_{0};
  std::function<void()> wake_;
  std::thread worker_;
};

}  // namespace model
