#include "model/train/train_session.hpp"

#include <cmath>
#include <stdexcept>
#include <utility>

namespace model {

TrainSession::~TrainSession() { stop_worker(); }

void TrainSession::set_on_progress(std::function<void()> wake) {
  std::lock_guard<std::mutex> lock(mutex_);
  wake_ = std::move(wake);
}

void TrainSession::stop_worker() {
  stop_ = true;
  if (worker_.joinable()) worker_.join();
  stop_ = false;
  running_ = false;
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
  trainer_ = std::move(trainer);
  config_ = trainer_->config();
  held_out_ = trainer_->held_out();
  max_steps_ = max_steps;
  max_steps_shared_ = max_steps;
  start_step_ = steps;
  problem_.clear();
  losses_.clear();
  snapshots_.clear();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    pending_losses_.clear();
    pending_snapshots_.clear();
  }
  // Step 0 (or the opened model) is the first snapshot: the history starts from noise.
  const attn::train::Evaluation e = trainer_->evaluate();
  publish_snapshot(*trainer_, e.loss);
  poll();
  ++generation_;
  return "";
}

void TrainSession::set_max_steps(int max_steps) {
  max_steps_ = max_steps;
  max_steps_shared_ = max_steps;
}

void TrainSession::start() {
  if (!trainer_ || running_) return;
  if (trainer_->steps_done() >= max_steps_) return;
  if (worker_.joinable()) worker_.join();  // a run that reached max_steps by itself
  problem_.clear();
  running_ = true;
  worker_ = std::thread([this] { worker_loop(); });
}

void TrainSession::pause() {
  stop_worker();
  poll();
}

void TrainSession::worker_loop() {
  attn::train::Trainer& trainer = *trainer_;
  double loss = 0;
  bool published = true;
  while (!stop_ && trainer.steps_done() < max_steps_shared_) {
    // A diverging run (too high a learning rate): the trainer keeps its last
    // finite weights; stop there and say why rather than draw NaN.
    const double next = trainer.step();
    if (!std::isfinite(next)) {
      std::lock_guard<std::mutex> lock(mutex_);
      pending_problem_ = "Training stopped at step " + std::to_string(trainer.steps_done()) +
                         ": the loss overflowed (it is no longer a finite number). Lower the learning rate and press Reset.";
      break;
    }
    loss = next;
    const bool snapshot = trainer.steps_done() % kSnapshotEvery == 0 || trainer.steps_done() >= max_steps_shared_;
    published = snapshot;
    if (snapshot) publish_snapshot(trainer, loss);
    std::function<void()> wake;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      pending_losses_.push_back(loss);
      if (snapshot) wake = wake_;
    }
    if (wake) wake();
  }
  // Paused between snapshots: the newest weights become one, so what is
  // saved or opened is what the curves end on.
  if (!published) publish_snapshot(trainer, loss);
  running_ = false;
  std::function<void()> wake;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    wake = wake_;
  }
  if (wake) wake();
}

void TrainSession::publish_snapshot(const attn::train::Trainer& trainer, double loss) {
  TrainSnapshot s;
  s.step = trainer.steps_done();
  s.loss = loss;
  s.held_out = trainer.evaluate();
  s.heads = trainer.head_scores();
  s.model = std::make_shared<const attn::train::Model>(trainer.model());
  std::lock_guard<std::mutex> lock(mutex_);
  pending_snapshots_.push_back(std::move(s));
}

bool TrainSession::poll() {
  std::vector<double> losses;
  std::vector<TrainSnapshot> snaps;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    losses.swap(pending_losses_);
    snaps.swap(pending_snapshots_);
    if (!pending_problem_.empty()) {
      problem_ = std::exchange(pending_problem_, "");
      ++generation_;
    }
  }
  if (losses.empty() && snaps.empty()) return false;
  losses_.insert(losses_.end(), losses.begin(), losses.end());
  for (TrainSnapshot& s : snaps) snapshots_.push_back(std::move(s));
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
  if (worker_.joinable()) worker_.join();
  running_ = false;
  poll();
}

}  // namespace model
