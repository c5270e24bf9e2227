// attn::train::loss_and_gradient against PyTorch autograd (float64). Each
// fixture in tests/fixtures/train (written by scripts/make_train_fixtures.py)
// holds a model in the model-file format, one batch, and torch's loss and
// the gradient of every weight. Tolerance: |ours - torch| <= 1e-9 *
// max(1, |torch|) per element, on the loss and on every gradient cell;
// a failure names the worst element. Both sides are float64, so the only
// differences are summation order.
#include <doctest/doctest.h>

#include <cmath>
#include <sstream>
#include <string>

#include "attn/io/model_file.hpp"
#include "attn/io/text_file.hpp"

using attn::io::ModelFile;
using nlohmann::json;
using namespace attn::train;

namespace {

constexpr double kTolerance = 1e-9;

json read_fixture(const std::string& name) {
  return json::parse(attn::io::read_text(std::string(ATTNVIZ_FIXTURES_DIR) + "/train/" + name + ".json"));
}

Batch batch_from(const json& b) {
  const int rows = static_cast<int>(b["tokens"].size()), cols = static_cast<int>(b["tokens"][0].size());
  Batch batch;
  batch.tokens.resize(rows, cols);
  batch.target.resize(rows, cols);
  batch.scored.resize(rows, cols);
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) {
      batch.tokens(r, c) = b["tokens"][r][c].get<int>();
      batch.target(r, c) = b["target"][r][c].get<int>();
      batch.scored(r, c) = b["scored"][r][c].get<int>() != 0;
    }
  }
  return batch;
}

// torch's gradient, read through the model-file reader: the fixture lays it
// out like the "weights" object, so the shapes are checked the same way.
Model torch_gradient(const json& fixture) {
  json doc = fixture["model"];
  doc["weights"] = fixture["gradient"];
  return attn::io::parse_model(doc.dump()).model;
}

struct Worst {
  double excess = -1;  // error / allowed; > 1 fails
  std::string where;
  double ours = 0, theirs = 0;
};

void compare(const std::string& name, const Eigen::MatrixXd& ours, const Eigen::MatrixXd& theirs, Worst& worst) {
  REQUIRE(ours.rows() == theirs.rows());
  REQUIRE(ours.cols() == theirs.cols());
  for (Eigen::Index r = 0; r < ours.rows(); ++r) {
    for (Eigen::Index c = 0; c < ours.cols(); ++c) {
      const double excess = std::abs(ours(r, c) - theirs(r, c)) / (kTolerance * std::max(1.0, std::abs(theirs(r, c))));
      if (!(excess <= worst.excess)) {  // NaN counts as worst
        std::ostringstream at;
        at << name << "[" << r << "][" << c << "]";
        worst = {excess, at.str(), ours(r, c), theirs(r, c)};
      }
    }
  }
}

void check_fixture(const std::string& name, int threads) {
  CAPTURE(name);
  CAPTURE(threads);
  const json fixture = read_fixture(name);
  const Model model = attn::io::parse_model(fixture["model"].dump()).model;
  const Batch batch = batch_from(fixture["batch"]);
  Model grad;
  const double loss = loss_and_gradient(model, batch, &grad, threads);
  const double torch_loss = fixture["loss"].get<double>();
  INFO("loss: ours " << loss << ", torch " << torch_loss);
  CHECK(std::abs(loss - torch_loss) <= kTolerance * std::max(1.0, std::abs(torch_loss)));

  Model expected = torch_gradient(fixture);
  auto ours = parameters(grad);
  auto theirs = parameters(expected);
  REQUIRE(ours.size() == theirs.size());
  Worst worst;
  for (std::size_t i = 0; i < ours.size(); ++i) {
    REQUIRE(ours[i].name == theirs[i].name);
    compare(ours[i].name, ours[i].value, theirs[i].value, worst);
  }
  INFO("worst element " << worst.where << ": ours " << worst.ours << ", torch " << worst.theirs << " ("
                        << worst.excess << " × the tolerance)");
  CHECK(worst.excess <= 1.0);
  MESSAGE(name << " (" << ours.size() << " weight matrices): worst " << worst.where << " at " << worst.excess
               << " × tolerance");
}

}  // namespace

TEST_CASE("training gradients match PyTorch autograd: 1 layer, learned positions") {
  check_fixture("one_layer_learned", 1);
}

TEST_CASE("training gradients match PyTorch autograd: 1 layer, sinusoidal positions") {
  check_fixture("one_layer_sinusoidal", 1);
}

TEST_CASE("training gradients match PyTorch autograd: 2 layers, sinusoidal positions, MLP") {
  check_fixture("two_layer_sinusoidal_mlp", 1);
}

TEST_CASE("training gradients match PyTorch autograd: 2 layers, learned positions, MLP, split over threads") {
  check_fixture("two_layer_learned_mlp", 1);
  check_fixture("two_layer_learned_mlp", 3);
}
