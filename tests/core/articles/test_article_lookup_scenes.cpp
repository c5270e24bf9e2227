// The newer article scenes, each for the property it exists to show: the
// soft dictionary returns records by label match, the matrix form equals a
// plain loop over queries, d_k = 64 saturates until scaled, and the convex
// hull scene has the shape its panel draws.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "attn/explore/convex_hull.hpp"
#include "scene_helpers.hpp"

using scene::load;
using scene::Loaded;

namespace {
constexpr double kTol = 1e-12;
}  // namespace

TEST_CASE("scene soft_dictionary: a query gets every record, weighted by how well its label matches") {
  const Loaded l = load("soft_dictionary");
  const attn::Scenario& s = l.scenario();
  REQUIRE(s.is_cross());
  const attn::Mat& w = l.at(attn::StageKind::weights, 0);
  const int apple = l.context_index("apple"), cherry = l.context_index("cherry");
  const int ask_apple = l.token_index("apple?"), ask_either = l.token_index("apple or cherry?"),
            ask_any = l.token_index("anything?");
  REQUIRE(apple >= 0);
  REQUIRE(ask_any >= 0);
  // An exact label gets most, but not all, of the weight.
  CHECK(scene::argmax_in_row(w, ask_apple) == apple);
  CHECK(w(ask_apple, apple) > 0.9);
  CHECK(w(ask_apple, apple) < 1.0 - 1e-3);
  // Two labels matched equally share the weight.
  CHECK(std::abs(w(ask_either, apple) - w(ask_either, cherry)) <= kTol);
  CHECK(w(ask_either, apple) + w(ask_either, cherry) > 0.8);
  // A query matching nothing averages every record (records are the last two context columns).
  const attn::Mat records = s.context->rightCols(2);
  const attn::Mat mean = records.colwise().mean();
  CHECK((l.at(attn::StageKind::output).row(ask_any) - mean).cwiseAbs().maxCoeff() <= kTol);
  // Keys and values really come from different parts of the rows.
  CHECK((l.at(attn::StageKind::v, 0) - records).cwiseAbs().maxCoeff() <= kTol);
}

TEST_CASE("scene matrix_form: softmax(Q K^T) V equals attention computed one query at a time") {
  const Loaded l = load("matrix_form");
  const attn::Scenario& s = l.scenario();
  REQUIRE(s.heads.size() == 1);
  const attn::HeadWeights& hw = s.heads[0];
  const int n = static_cast<int>(s.x.rows()), d_model = static_cast<int>(s.x.cols());
  const int d_k = static_cast<int>(hw.w_q.cols()), d_v = static_cast<int>(hw.w_v.cols());
  CHECK(n == 4);
  CHECK(d_model == 3);
  CHECK(s.scale == attn::ScaleMode::None);
  // The loop form, written out with scalars.
  auto project = [&](const attn::Mat& w, int row, int col) {
    double sum = 0;
    for (int m = 0; m < d_model; ++m) sum += s.x(row, m) * w(m, col);
    return sum;
  };
  double worst = 0;
  for (int i = 0; i < n; ++i) {
    std::vector<double> scores(static_cast<size_t>(n));
    double top = -1e300;
    for (int j = 0; j < n; ++j) {
      double dot = 0;
      for (int c = 0; c < d_k; ++c) dot += project(hw.w_q, i, c) * project(hw.w_k, j, c);
      scores[static_cast<size_t>(j)] = dot;
      top = std::max(top, dot);
    }
    double total = 0;
    for (double& e : scores) total += (e = std::exp(e - top));
    for (int c = 0; c < d_v; ++c) {
      double y = 0;
      for (int j = 0; j < n; ++j) y += scores[static_cast<size_t>(j)] / total * project(hw.w_v, j, c);
      worst = std::max(worst, std::abs(y - l.at(attn::StageKind::output)(i, c)));
    }
  }
  INFO("largest difference between the loop and the matrix form: " << worst);
  CHECK(worst <= kTol);
}

TEST_CASE("scene why_scale: d_k = 64 without scaling is nearly one-hot, with 1/sqrt(d_k) it is not") {
  const Loaded l = load("why_scale");
  CHECK(l.trace.dims.d_k == 64);
  CHECK(l.scenario().scale == attn::ScaleMode::None);
  const attn::Mat& w = l.at(attn::StageKind::weights, 0);
  attn::Scenario scaled = l.scenario();
  scaled.scale = attn::ScaleMode::SqrtDk;
  const attn::Trace t = attn::compute_trace(scaled);
  const attn::Mat ws = t.find(attn::StageKind::weights, 0)->value.dense();
  CHECK((t.find(attn::StageKind::scaled, 0)->value.dense() - l.at(attn::StageKind::scores, 0) / 8.0).cwiseAbs().maxCoeff() <= kTol);
  for (int i = 0; i < w.rows(); ++i) {
    INFO("row " << i << ": max weight " << w.row(i).maxCoeff() << " unscaled, " << ws.row(i).maxCoeff() << " scaled");
    CHECK(w.row(i).maxCoeff() > 0.9);
    CHECK(ws.row(i).maxCoeff() < 0.7);
  }
}

TEST_CASE("scene convex_hull_2d: 2-D values spanning a polygon, the origin token averages them") {
  const Loaded l = load("convex_hull_2d");
  const attn::Mat& v = l.at(attn::StageKind::v, 0);
  REQUIRE(v.cols() == 2);
  CHECK(attn::convex_hull_2d(v).size() >= 5);
  const int origin = l.token_index("origin");
  REQUIRE(origin >= 0);
  const attn::Mat& w = l.at(attn::StageKind::weights, 0);
  CHECK((w.row(origin).array() - 1.0 / static_cast<double>(v.rows())).abs().maxCoeff() <= kTol);
  CHECK((l.at(attn::StageKind::output).row(origin) - v.colwise().mean()).cwiseAbs().maxCoeff() <= kTol);
}
