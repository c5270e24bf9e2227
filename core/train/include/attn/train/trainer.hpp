// Training loop state: the model, Adam's moments, the data stream and the
// step count. Pure and single-owner: the app runs it on a worker thread, the
// CLI and the tests call it directly.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "attn/train/model.hpp"
#include "attn/train/task.hpp"

namespace attn::train {

struct TrainConfig {
  TaskSpec task;
  ModelConfig model;  // vocab and seq_len are overwritten from the task
  int batch = 64;
  double learning_rate = 3e-3;
  double beta1 = 0.9, beta2 = 0.999, epsilon = 1e-8;
  std::uint64_t seed = 1;
  int held_out = 256;  // held-out sequences for accuracy
  int threads = 0;     // 0 = hardware
};

// Empty when valid, else one message naming the field.
std::string validate_train_config(const TrainConfig& config);

struct Evaluation {
  double loss = 0;
  double accuracy = 0;  // share of scored held-out positions predicted exactly
};

// Per head, averaged over the held-out scored positions where it is defined:
// how much attention goes to the previous token (position t-1), and to the
// induction target (the position just after the most recent earlier
// occurrence of the current token).
struct HeadScore {
  int layer = 0, head = 0;
  double previous_token = 0;
  double induction = 0;
};

class Trainer {
 public:
  explicit Trainer(const TrainConfig& config);  // throws std::invalid_argument when invalid
  // Resumes from saved weights (e.g. a model file); Adam restarts from zero
  // moments (bias correction counts from the resume), and the batches come
  // from a generator seeded with seed + steps_done, so they are fresh rather
  // than a replay of the first run's. Throws std::invalid_argument when the
  // config is invalid or the model's shapes do not fit it and the task.
  Trainer(const TrainConfig& config, Model model, int steps_done);

  // One Adam step on a fresh batch; returns that batch's loss. When the loss
  // is not finite (training diverged) the step is not applied: the weights
  // and steps_done() stay as they were.
  double step();
  Evaluation evaluate() const;                 // on the held-out set
  std::vector<HeadScore> head_scores() const;  // on the held-out set

  const Model& model() const { return model_; }
  const TrainConfig& config() const { return config_; }
  int steps_done() const { return steps_; }
  const Batch& held_out() const { return held_out_; }

 private:
  TrainConfig config_;
  Model model_;
  Model m_, v_;  // Adam moments
  std::mt19937_64 rng_;
  Batch held_out_;
  int steps_ = 0;
  int adam_steps_ = 0;  // steps since the moments were last zero, for bias correction
};

// The benchmark's reference settings for a task: 16 symbols, length 12
// (key-value: 8 pairs), d_model 64, 4 heads, 2 layers, learned positions,
// batch 64, Adam with learning rate 3e-3, seed 1.
TrainConfig reference_config(TaskKind kind);

// The Train view's first run, from the same small model: induction over 16
// symbols of length 8 at random offsets, fixed (sinusoidal) positions. The
// app starts from these rather than keeping its own copy of the numbers.
TrainConfig default_train_config();

// The head with the highest induction score (ties: the later layer).
HeadScore best_induction_head(const std::vector<HeadScore>& scores);

}  // namespace attn::train
