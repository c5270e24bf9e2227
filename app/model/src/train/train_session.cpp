// The Train view's run: steps on a TaskRunner, published every step (the
// window is woken at each snapshot), and the UI's copies filled by poll().
#include "model/train/train_session.hpp"

#include <cmath>
#include <stdexcept>
#include <utility>

namespace model {

TrainSession::TrainSession()
    : runner_([this](attn::train::Trainer* const& trainer, TaskContext<Steps>& task) { return train(*trainer, task); },
              TaskPolicy::Replace) {}

void TrainSession::set_on_progress(std::function<void()> wake) { runner_.set_wake(std::move(wake)); }

void TrainSession::stop_worker() {
  runner_.cancel();
  runner_.wait_idle();
}

std::string TrainSession::reset(const attn::train::TrainConfig& config, int max_steps) {
  std::unique_ptr<attn::train::Trainer> trainer;
  try {
    trainer = std::make_unique<attn::train::Trainer>(config);
  } catch (const std::exception& e) {
    return e.what();
  }
  stop_worker();
  return resume(trainer->config(), trainer->model(), 0, max_steps);
}

std::string TrainSession::resume(const attn::train::TrainConfig& config, attn::train::Model model, int steps,
                                 int max_steps) {
  std::unique_ptr<attn::train::Trainer> trainer;
  try {
    trainer = std::make_unique<attn::train::Trainer>(config, std::move(model), steps);
  } catch (const std::exception& e) {
    return e.what();
  }
  stop_worker();
  runner_.discard();  // the old run's last steps
  trainer_ = std::move(trainer);
  config_ = trainer_->config();
  held_out_ = trainer_->held_out();
  max_steps_ = max_steps;
  max_steps_shared_ = max_steps;
  start_step_ = steps;
  problem_.clear();
  losses_.clear();
  snapshots_.clear();
  // Step 0 (or the opened model) is the first snapshot: the history starts from noise.
  const attn::train::Evaluation e = trainer_->evaluate();
  snapshots_.push_back(snapshot_of(*trainer_, e.loss));
  ++generation_;
  return "";
}

void TrainSession::set_max_steps(int max_steps) {
  max_steps_ = max_steps;
  max_steps_shared_ = max_steps;
}

void TrainSession::start() {
  if (!trainer_ || running()) return;
  if (trainer_->steps_done() >= max_steps_) return;
  problem_.clear();
  runner_.submit(trainer_.get());
}

void TrainSession::pause() {
  stop_worker();
  poll();
}

TrainSession::Steps TrainSession::train(attn::train::Trainer& trainer, TaskContext<Steps>& task) const {
  Steps steps;  // not yet handed over
  double loss = 0;
  bool published = true;
  while (!task.cancelled() && trainer.steps_done() < max_steps_shared_) {
    // A diverging run (too high a learning rate): the trainer keeps its last
    // finite weights; stop there and say why rather than draw NaN.
    const double next = trainer.step();
    if (!std::isfinite(next)) {
      steps.problem = "Training stopped at step " + std::to_string(trainer.steps_done()) +
                      ": the loss overflowed (it is no longer a finite number). Lower the learning rate and press Reset.";
      break;
    }
    loss = next;
    const bool snapshot = trainer.steps_done() % kSnapshotEvery == 0 || trainer.steps_done() >= max_steps_shared_;
    published = snapshot;
    steps.losses.push_back(loss);
    if (snapshot) steps.snapshots.push_back(snapshot_of(trainer, loss));
    // Every step's loss goes over at once; the window is woken for snapshots.
    if (task.publish(std::move(steps), snapshot)) steps = {};
  }
  // Paused between snapshots: the newest weights become one, so what is
  // saved or opened is what the curves end on.
  if (!published) steps.snapshots.push_back(snapshot_of(trainer, loss));
  return steps;
}

TrainSnapshot TrainSession::snapshot_of(const attn::train::Trainer& trainer, double loss) {
  TrainSnapshot s;
  s.step = trainer.steps_done();
  s.loss = loss;
  s.held_out = trainer.evaluate();
  s.heads = trainer.head_scores();
  s.model = std::make_shared<const attn::train::Model>(trainer.model());
  return s;
}

bool TrainSession::poll() {
  bool changed = false;
  // A paused run's last steps come back with its cancelled outcome.
  while (std::optional<TaskOutcome<Steps>> o = runner_.take()) {
    if (!o->result) continue;
    Steps& steps = *o->result;
    if (!steps.problem.empty()) {
      problem_ = std::move(steps.problem);
      changed = true;
    }
    if (steps.losses.empty() && steps.snapshots.empty()) continue;
    losses_.insert(losses_.end(), steps.losses.begin(), steps.losses.end());
    for (TrainSnapshot& s : steps.snapshots) snapshots_.push_back(std::move(s));
    changed = true;
  }
  if (!changed) return false;
  thin_snapshots();
  ++generation_;
  return true;
}

void TrainSession::thin_snapshots() {
  while (snapshots_.size() > kMaxSnapshots) {
    std::vector<TrainSnapshot> kept;
    kept.reserve(snapshots_.size() / 2 + 2);
    for (size_t i = 0; i + 1 < snapshots_.size(); i += 2) kept.push_back(std::move(snapshots_[i]));
    kept.push_back(std::move(snapshots_.back()));
    snapshots_ = std::move(kept);
  }
}

void TrainSession::wait_stopped() {
  runner_.wait_idle();
  poll();
}

}  // namespace model
