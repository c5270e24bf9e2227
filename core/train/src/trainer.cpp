// Adam on fresh batches, plus held-out accuracy and per-head attention scores.
#include "attn/train/trainer.hpp"

#include <cmath>
#include <stdexcept>

namespace attn::train {
namespace {

ModelConfig shaped_for_task(ModelConfig model, const TaskSpec& task) {
  model.vocab = model_vocab(task);
  model.seq_len = sequence_length(task);
  return model;
}

void throw_if_invalid(const TrainConfig& config) {
  const std::string problem = validate_train_config(config);
  if (!problem.empty()) throw std::invalid_argument(problem);
}

// Most recent earlier position j < t holding tokens[t]; -1 when none.
int previous_occurrence(const Eigen::MatrixXi& tokens, int row, int t) {
  for (int j = t - 1; j >= 0; --j)
    if (tokens(row, j) == tokens(row, t)) return j;
  return -1;
}

}  // namespace

std::string validate_train_config(const TrainConfig& c) {
  std::string problem = validate_task(c.task);
  if (!problem.empty()) return "task." + problem;
  problem = validate_config(shaped_for_task(c.model, c.task));
  if (!problem.empty()) return "model." + problem;
  if (c.batch < 1 || c.batch > 65536) return "batch: " + std::to_string(c.batch) + " is outside 1..65536";
  if (!(c.learning_rate > 0 && c.learning_rate < 10))
    return "learning_rate: " + std::to_string(c.learning_rate) + " must be above 0 and below 10";
  if (!(c.beta1 >= 0 && c.beta1 < 1)) return "beta1: " + std::to_string(c.beta1) + " must be in [0, 1)";
  if (!(c.beta2 >= 0 && c.beta2 < 1)) return "beta2: " + std::to_string(c.beta2) + " must be in [0, 1)";
  if (!(c.epsilon > 0)) return "epsilon: must be above 0, got " + std::to_string(c.epsilon);
  if (c.held_out < 1 || c.held_out > 65536)
    return "held_out: " + std::to_string(c.held_out) + " is outside 1..65536";
  if (c.threads < 0 || c.threads > 256) return "threads: " + std::to_string(c.threads) + " is outside 0..256";
  return "";
}

Trainer::Trainer(const TrainConfig& config) : config_(config) {
  throw_if_invalid(config_);
  config_.model = shaped_for_task(config_.model, config_.task);
  model_ = init_model(config_.model, config_.seed);
  m_ = zeros_like(model_);
  v_ = zeros_like(model_);
  rng_.seed(config_.seed);
  held_out_ = held_out_batch(config_.task, config_.held_out, config_.seed);
}

Trainer::Trainer(const TrainConfig& config, Model model, int steps_done) : config_(config) {
  config_.model = model.config;
  throw_if_invalid(config_);
  const ModelConfig expected = shaped_for_task(model.config, config_.task);
  if (model.config.vocab != expected.vocab || model.config.seq_len != expected.seq_len)
    throw std::invalid_argument("model: built for vocab " + std::to_string(model.config.vocab) + " and " +
                                std::to_string(model.config.seq_len) + " positions, the task needs vocab " +
                                std::to_string(expected.vocab) + " and " + std::to_string(expected.seq_len) +
                                " positions");
  if (steps_done < 0) throw std::invalid_argument("steps_done: must not be negative");
  // Shapes must match what init_model would build, or the passes would read out of bounds.
  Model reference = init_model(model.config, 0);
  std::vector<NamedParam> want = parameters(reference), got = parameters(model);
  if (want.size() != got.size()) throw std::invalid_argument("model: parameter list does not match its config");
  for (size_t i = 0; i < want.size(); ++i)
    if (want[i].value.rows() != got[i].value.rows() || want[i].value.cols() != got[i].value.cols())
      throw std::invalid_argument("model." + got[i].name + ": expected " + std::to_string(want[i].value.rows()) +
                                  "x" + std::to_string(want[i].value.cols()) + ", got " +
                                  std::to_string(got[i].value.rows()) + "x" + std::to_string(got[i].value.cols()));
  if (model.positions.rows() != reference.positions.rows() || model.positions.cols() != reference.positions.cols())
    throw std::invalid_argument("model.positions: expected " + std::to_string(reference.positions.rows()) + "x" +
                                std::to_string(reference.positions.cols()));
  model_ = std::move(model);
  m_ = zeros_like(model_);
  v_ = zeros_like(model_);
  rng_.seed(config_.seed + static_cast<std::uint64_t>(steps_done));  // a fresh stream, not a replay
  held_out_ = held_out_batch(config_.task, config_.held_out, config_.seed);
  steps_ = steps_done;
}

double Trainer::step() {
  const Batch batch = make_batch(config_.task, config_.batch, rng_);
  Model grad;
  const double loss = loss_and_gradient(model_, batch, &grad, config_.threads);
  // A diverged step (the loss overflowed) would spread NaN into every weight:
  // it is not applied, so the model stays at its last finite state.
  if (!std::isfinite(loss)) return loss;
  ++steps_;
  ++adam_steps_;
  const double c1 = 1.0 - std::pow(config_.beta1, adam_steps_);
  const double c2 = 1.0 - std::pow(config_.beta2, adam_steps_);
  const double b1 = config_.beta1, b2 = config_.beta2;
  std::vector<NamedParam> w = parameters(model_), g = parameters(grad), m = parameters(m_), v = parameters(v_);
  for (size_t p = 0; p < w.size(); ++p) {
    auto ga = g[p].value.array();
    m[p].value.array() = b1 * m[p].value.array() + (1 - b1) * ga;
    v[p].value.array() = b2 * v[p].value.array() + (1 - b2) * ga.square();
    w[p].value.array() -= config_.learning_rate * (m[p].value.array() / c1) /
                          ((v[p].value.array() / c2).sqrt() + config_.epsilon);
  }
  return loss;
}

Evaluation Trainer::evaluate() const {
  const BatchScore s = score_batch(model_, held_out_, config_.threads);
  return {s.loss, s.accuracy};
}

std::vector<HeadScore> Trainer::head_scores() const {
  const ModelConfig& c = model_.config;
  std::vector<HeadScore> scores;
  for (int l = 0; l < c.n_layers; ++l)
    for (int h = 0; h < c.n_heads; ++h) scores.push_back({l, h, 0, 0});
  long long prev_count = 0, induction_count = 0;
  std::vector<int> tokens(c.seq_len);
  for (int row = 0; row < held_out_.size(); ++row) {
    for (int t = 0; t < c.seq_len; ++t) tokens[t] = held_out_.tokens(row, t);
    const SequenceForward f = forward(model_, tokens);
    for (int t = 0; t < c.seq_len; ++t) {
      if (!held_out_.scored(row, t)) continue;
      const int earlier = previous_occurrence(held_out_.tokens, row, t);
      if (t >= 1) ++prev_count;
      if (earlier >= 0) ++induction_count;
      for (HeadScore& s : scores) {
        const Mat& a = f.weights[s.layer][s.head];
        if (t >= 1) s.previous_token += a(t, t - 1);
        if (earlier >= 0) s.induction += a(t, earlier + 1);
      }
    }
  }
  for (HeadScore& s : scores) {
    if (prev_count > 0) s.previous_token /= static_cast<double>(prev_count);
    if (induction_count > 0) s.induction /= static_cast<double>(induction_count);
  }
  return scores;
}

HeadScore best_induction_head(const std::vector<HeadScore>& scores) {
  HeadScore best;
  bool first = true;
  for (const HeadScore& s : scores)
    if (first || s.induction > best.induction || (s.induction == best.induction && s.layer > best.layer)) {
      best = s;
      first = false;
    }
  return best;
}

namespace {

// The small model both the reference runs and the app start from: 16
// symbols, d_model 64, 4 heads, 2 layers, batch 64, learning rate 3e-3,
// seed 1. Written once so the two cannot drift apart.
TrainConfig small_model_config(TaskKind kind) {
  TrainConfig c;
  c.task.kind = kind;
  c.task.vocab = 16;
  c.model.d_model = 64;
  c.model.n_heads = 4;
  c.model.n_layers = 2;
  c.batch = 64;
  c.learning_rate = 3e-3;
  c.seed = 1;
  return c;
}

}  // namespace

TrainConfig reference_config(TaskKind kind) {
  TrainConfig c = small_model_config(kind);
  c.task.length = kind == TaskKind::KeyValue ? 8 : 12;
  c.model.vocab = model_vocab(c.task);
  c.model.seq_len = sequence_length(c.task);
  c.model.learned_positions = true;
  return c;
}

TrainConfig default_train_config() {
  TrainConfig c = small_model_config(TaskKind::Induction);
  c.task.length = 8;
  c.task.random_offset = true;
  c.model.learned_positions = false;
  return c;
}

}  // namespace attn::train
