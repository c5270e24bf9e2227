// Bad settings are refused with a message naming the field.
#include <doctest/doctest.h>

#include <functional>
#include <stdexcept>
#include <utility>
#include <vector>

#include "train_helpers.hpp"

using namespace attn::train;
using namespace attn::train::testing;

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::string constructor_error(const TrainConfig& config) {
  try {
    Trainer trainer(config);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("validation: model config") {
  ModelConfig c;
  CHECK(validate_config(c).empty());
  c.n_heads = 3;
  CHECK(validate_config(c) == "n_heads: 3 does not divide d_model 64");
  c = ModelConfig{};
  c.n_layers = 3;
  CHECK(contains(validate_config(c), "n_layers: 3"));
  c = ModelConfig{};
  c.vocab = 0;
  CHECK(contains(validate_config(c), "vocab: 0"));
  c = ModelConfig{};
  c.d_model = 0;
  CHECK(contains(validate_config(c), "d_model: 0"));
  c = ModelConfig{};
  c.d_mlp = -1;
  CHECK(contains(validate_config(c), "d_mlp: -1"));
  CHECK_THROWS_WITH_AS(init_model(c, 1), "d_mlp: -1 is outside 0..4096 (0 means 4 * d_model)",
                       std::invalid_argument);
}

TEST_CASE("validation: task") {
  CHECK(validate_task(task_of(TaskKind::Copy, 16, 12)).empty());
  CHECK(contains(validate_task(task_of(TaskKind::Copy, 0, 12)), "vocab: 0"));
  CHECK(contains(validate_task(task_of(TaskKind::Copy, 65, 12)), "vocab: 65"));
  CHECK(contains(validate_task(task_of(TaskKind::Copy, 16, 0)), "length: 0"));
  CHECK(contains(validate_task(task_of(TaskKind::Copy, 16, 65)), "length: 65"));
  CHECK(validate_task(task_of(TaskKind::KeyValue, 16, 8)).empty());
  CHECK(contains(validate_task(task_of(TaskKind::KeyValue, 16, 9)), "length: key-value"));
  std::mt19937_64 rng(1);
  CHECK_THROWS_AS(make_batch(task_of(TaskKind::Copy, 1, 3), 2, rng), std::invalid_argument);
  CHECK_THROWS_AS(make_batch(task_of(TaskKind::Copy, 4, 3), 0, rng), std::invalid_argument);
}

TEST_CASE("validation: trainer constructor names the bad field") {
  TrainConfig good;
  good.task = task_of(TaskKind::Copy, 4, 3);
  good.model.d_model = 8;
  good.model.n_heads = 2;
  CHECK(validate_train_config(good).empty());
  CHECK(constructor_error(good).empty());

  // Each row breaks one field; the message must name it.
  const std::vector<std::pair<std::function<void(TrainConfig&)>, std::string>> cases = {
      {[](TrainConfig& c) { c.model.n_heads = 3; }, "model.n_heads: 3 does not divide d_model 8"},
      {[](TrainConfig& c) { c.model.n_layers = 3; }, "model.n_layers: 3"},
      {[](TrainConfig& c) { c.task.vocab = 0; }, "task.vocab: 0"},
      {[](TrainConfig& c) { c.batch = 0; }, "batch: 0"},
      {[](TrainConfig& c) { c.learning_rate = -1; }, "learning_rate"},
      {[](TrainConfig& c) { c.beta2 = 1; }, "beta2"},
      {[](TrainConfig& c) { c.epsilon = 0; }, "epsilon"},
      {[](TrainConfig& c) { c.held_out = 0; }, "held_out: 0"},
      {[](TrainConfig& c) { c.threads = -2; }, "threads: -2"},
  };
  for (const auto& [breakage, expected] : cases) {
    TrainConfig c = good;
    breakage(c);
    const std::string message = constructor_error(c);
    INFO("message: " << message << "; expected it to contain: " << expected);
    CHECK(contains(message, expected));
    CHECK(validate_train_config(c) == message);
  }
}

TEST_CASE("validation: resuming needs a model shaped for the task") {
  TrainConfig config;
  config.task = task_of(TaskKind::Copy, 4, 3);
  config.model.d_model = 8;
  config.model.n_heads = 2;
  Trainer fresh(config);
  fresh.step();
  Trainer resumed(config, fresh.model(), 1);
  CHECK(resumed.steps_done() == 1);
  resumed.step();
  CHECK(resumed.steps_done() == 2);

  TrainConfig other = config;
  other.task.vocab = 5;
  CHECK_THROWS_WITH_AS(Trainer(other, fresh.model(), 1),
                       "model: built for vocab 5 and 6 positions, the task needs vocab 6 and 6 positions",
                       std::invalid_argument);
  Model broken = fresh.model();
  broken.layers[0].w_o.resize(3, 3);
  CHECK_THROWS_WITH_AS(Trainer(config, broken, 1), "model.layers[0].w_o: expected 8x8, got 3x3",
                       std::invalid_argument);
  CHECK_THROWS_AS(Trainer(config, fresh.model(), -1), std::invalid_argument);
}

TEST_CASE("validation: a batch that does not fit the model") {
  const TaskSpec task = task_of(TaskKind::Copy, 4, 3);
  const Model model = init_model(config_for(task, 8, 2, 1, true, false), 1);
  std::mt19937_64 rng(1);
  const Batch longer = make_batch(task_of(TaskKind::Copy, 4, 4), 2, rng);
  CHECK_THROWS_WITH_AS(loss_and_gradient(model, longer, nullptr), "batch: sequences have 8 tokens, the model expects 6",
                       std::invalid_argument);
  CHECK_THROWS_AS(forward(model, {0, 1}), std::invalid_argument);
  CHECK_THROWS_AS(forward(model, {0, 1, 2, 3, 4, 9}), std::invalid_argument);
}
