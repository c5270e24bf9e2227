// A trained layer handed to the core as an ordinary scenario: the core's
// trace must reproduce the model's own softmax weights and the layer's
// contribution to the residual stream (residual[l+1] - residual[l] without
// an MLP), to 1e-12 absolute.
#include <doctest/doctest.h>

#include "attn/compute/trace.hpp"
#include "train_helpers.hpp"

using namespace attn::train;
using namespace attn::train::testing;

namespace {

constexpr double kTolerance = 1e-12;

void expect_close(const attn::Mat& got, const attn::Mat& want, const std::string& what) {
  REQUIRE(got.rows() == want.rows());
  REQUIRE(got.cols() == want.cols());
  Eigen::Index r = 0, c = 0;
  const double worst = (got - want).cwiseAbs().maxCoeff(&r, &c);
  INFO(what << ": largest difference " << worst << " at (" << r << ", " << c << "), core " << got(r, c)
            << ", model " << want(r, c));
  CHECK(worst <= kTolerance);
}

}  // namespace

TEST_CASE("layer scenario: the core's trace matches the model's forward pass") {
  const TaskSpec task = task_of(TaskKind::Induction, 10, 6, true);
  TrainConfig config;
  config.task = task;
  config.model = config_for(task, 16, 4, 2, true, false);
  config.batch = 16;
  config.held_out = 4;
  config.threads = 1;
  Trainer trainer(config);
  for (int i = 0; i < 20; ++i) trainer.step();  // trained weights, not just the initial ones
  const Model& model = trainer.model();
  const std::vector<int> tokens = row_tokens(trainer.held_out(), 0);
  const SequenceForward f = forward(model, tokens);
  for (int layer = 0; layer < 2; ++layer) {
    const attn::Scenario s = layer_scenario(model, task, tokens, layer);
    CHECK(attn::validate(s).empty());
    CHECK(s.tokens.size() == tokens.size());
    CHECK(s.tokens[0] == token_name(task, tokens[0]));
    const attn::Trace trace = attn::compute_trace(s);
    for (int h = 0; h < config.model.n_heads; ++h) {
      const attn::Stage* weights = trace.find(attn::StageKind::weights, h);
      REQUIRE(weights != nullptr);
      expect_close(weights->value.dense(), f.weights[layer][h],
                   "layer " + std::to_string(layer) + " head " + std::to_string(h) + " weights");
    }
    const attn::Stage* output = trace.find(attn::StageKind::output);
    REQUIRE(output != nullptr);
    expect_close(output->value.dense(), f.residual[layer + 1] - f.residual[layer],
                 "layer " + std::to_string(layer) + " output");
  }
  CHECK_THROWS_AS(layer_scenario(model, task, tokens, 2), std::invalid_argument);
}

TEST_CASE("layer scenario: sinusoidal positions are the core's table") {
  const TaskSpec task = task_of(TaskKind::Copy, 6, 4);
  const Model model = init_model(config_for(task, 8, 2, 1, false, false), 3);
  // PE(p, 2i) = sin(p / 10000^(2i/d)), PE(p, 2i+1) = cos(same), checked entry by entry.
  double worst = 0;
  for (int p = 0; p < model.positions.rows(); ++p)
    for (int k = 0; k < model.positions.cols(); ++k) {
      const double angle = p / std::pow(10000.0, (k - k % 2) / 8.0);
      const double want = k % 2 == 0 ? std::sin(angle) : std::cos(angle);
      worst = std::max(worst, std::abs(model.positions(p, k) - want));
    }
  CHECK(worst <= 1e-15);
  Model copy = init_model(model.config, 3);
  for (const NamedParam& p : parameters(copy)) CHECK(p.name != "positions");
}
