// Scenes for the options of the last two articles: additive (Bahdanau)
// scores, ALiBi, sinusoidal positions, and the large 1024-token scene used
// for speed, and Gemma 2's soft cap. Each checks the stage the option adds
// and its defining formula.
#include <doctest/doctest.h>

#include <cmath>

#include "scene_helpers.hpp"

using scene::load;
using scene::Loaded;

namespace {
constexpr double kTol = 1e-12;
}  // namespace

TEST_CASE("scene additive_bahdanau: scores are v . tanh(q W + k U), not q . k") {
  const Loaded l = load("additive_bahdanau");
  const attn::Scenario& s = l.scenario();
  REQUIRE(s.score == attn::ScoreFn::Additive);
  REQUIRE(s.additive.size() == 1);
  const attn::Mat& q = l.at(attn::StageKind::q, 0);
  const attn::Mat& k = l.at(attn::StageKind::k, 0);
  const attn::Mat& scores = l.at(attn::StageKind::scores, 0);
  for (int i = 0; i < q.rows(); ++i)
    for (int j = 0; j < k.rows(); ++j) {
      const Eigen::RowVectorXd hidden = q.row(i) * s.additive[0].w + k.row(j) * s.additive[0].u;
      double expected = 0;
      for (int a = 0; a < hidden.size(); ++a) expected += s.additive[0].v(a) * std::tanh(hidden(a));
      CHECK(std::abs(scores(i, j) - expected) <= kTol);
    }
  CHECK((scores - q * k.transpose()).cwiseAbs().maxCoeff() > 0.1);
}

TEST_CASE("scene alibi: per-head slopes 2^(-8(h+1)/H) and recency-shaped weights") {
  const Loaded l = load("alibi");
  const int n_heads = static_cast<int>(l.scenario().heads.size());
  REQUIRE(n_heads == 4);
  const int n = static_cast<int>(l.scenario().x.rows());
  for (int h = 0; h < n_heads; ++h) {
    REQUIRE(l.has(attn::StageKind::alibi, h));
    REQUIRE(l.has(attn::StageKind::biased, h));
    const double m = std::pow(2.0, -8.0 * (h + 1) / n_heads);
    const attn::Mat& bias = l.at(attn::StageKind::alibi, h);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) CHECK(std::abs(bias(i, j) + m * std::abs(i - j)) <= kTol);
    // Scores are the same everywhere, so the nearest visible key wins.
    const attn::Mat& w = l.at(attn::StageKind::weights, h);
    for (int j = 0; j < n - 1; ++j) CHECK(w(n - 1, j) < w(n - 1, j + 1));
  }
  CHECK(l.at(attn::StageKind::weights, 0)(n - 1, n - 1) > l.at(attn::StageKind::weights, 3)(n - 1, n - 1));
}

TEST_CASE("scene sinusoidal: PE is added to X and separates repeated words") {
  const Loaded l = load("sinusoidal");
  REQUIRE(l.has(attn::StageKind::x_raw));
  REQUIRE(l.has(attn::StageKind::pe));
  const attn::Mat& raw = l.at(attn::StageKind::x_raw);
  const attn::Mat& pe = l.at(attn::StageKind::pe);
  const attn::Mat& x = l.at(attn::StageKind::x);
  CHECK((x - raw - pe).cwiseAbs().maxCoeff() <= kTol);
  for (int c = 0; c < pe.cols(); ++c) CHECK(pe(0, c) == (c % 2 == 0 ? 0.0 : 1.0));  // sin 0, cos 0
  // Token 0 and token 5 are the same word with the same raw embedding.
  const auto& tokens = l.scenario().tokens;
  REQUIRE(tokens.front() == tokens.back());
  CHECK(raw.row(0) == raw.row(raw.rows() - 1));
  CHECK((x.row(0) - x.row(x.rows() - 1)).cwiseAbs().maxCoeff() > 0.1);
}

TEST_CASE("scene large_1024x8: 1024 tokens, d_model 64, 8 heads of 8, W_O 64x64, causal") {
  const Loaded l = load("large_1024x8");
  const attn::Dims& d = l.trace.dims;
  CHECK(d.n_q == 1024);
  CHECK(d.n_k == 1024);
  CHECK(d.d_model == 64);
  CHECK(d.n_heads == 8);
  CHECK(d.d_k == 8);
  CHECK(d.d_v == 8);
  CHECK(d.d_out == 64);
  CHECK(l.scenario().mask == attn::MaskKind::Causal);
  CHECK(l.at(attn::StageKind::w_o).rows() == 64);
  CHECK(l.at(attn::StageKind::output).rows() == 1024);
  CHECK(l.at(attn::StageKind::output).cols() == 64);
  CHECK(l.at(attn::StageKind::weights, 7)(0, 0) == 1.0);
}

// The scene's description quotes these numbers; they are worked out here
// from X alone (no projections: Q = K = X, d_k = 4, so scores / 2).
TEST_CASE("scene soft_cap: every scaled score is 3 tanh(s / 3), and the cap flattens the weights the description quotes") {
  const Loaded l = load("soft_cap");
  const attn::Scenario& s = l.scenario();
  REQUIRE(s.softcap == 3.0);
  REQUIRE(s.heads.empty());
  const attn::Mat plain = s.x * s.x.transpose() / 2.0;
  const attn::Mat& scaled = l.at(attn::StageKind::scaled, 0);
  for (int i = 0; i < plain.rows(); ++i)
    for (int j = 0; j < plain.cols(); ++j) {
      CHECK(std::abs(scaled(i, j)) < 3.0);
      CHECK(std::abs(scaled(i, j) - 3.0 * std::tanh(plain(i, j) / 3.0)) <= kTol);
    }
  const int truck = 3;
  CHECK(std::abs(plain(truck, truck) - 7.11) < 0.005);
  CHECK(std::abs(scaled(truck, truck) - 2.95) < 0.005);
  attn::Scenario uncapped = s;
  uncapped.softcap = 0;
  const attn::Trace free_trace = attn::compute_trace(uncapped);
  const attn::Mat w_free = free_trace.find(attn::StageKind::weights, 0)->value.dense();
  const attn::Mat& w = l.at(attn::StageKind::weights, 0);
  CHECK(std::abs(w_free(truck, truck) - 0.97) < 0.005);
  CHECK(std::abs(w(truck, truck) - 0.44) < 0.005);
  for (int i = 0; i < w.rows(); ++i) CHECK(w.row(i).maxCoeff() < w_free.row(i).maxCoeff());
}
