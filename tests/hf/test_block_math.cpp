// A transformer block's pieces (core/hf/src/forward/block_math.cpp) at a
// length past the checkpoint fixtures' 64 positions: 600 tokens, so the
// product runs in several tiles of 256 rows x 128 columns, against plain
// loops from the definitions in float64 (1e-12, values of order 1), the
// same bits on one thread or two, and both stored layouts of a weight
// (nn.Linear's [out, in], GPT-2's Conv1D [in, out]).
#include <doctest/doctest.h>

#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "random_matrix.hpp"
#include "forward/block_math.hpp"

using namespace attn::hf;

namespace {

// A weight over `stored` (kept alive by the caller): W (in x out) itself,
// or stored as Wᵀ when `transposed`.
detail::Weight<double> weight_of(const MatX<double>& stored, bool transposed) {
  detail::Weight<double> w;
  w.data = stored.data();
  w.ld = stored.rows();
  w.transposed = transposed;
  w.in = transposed ? stored.cols() : stored.rows();
  w.out = transposed ? stored.rows() : stored.cols();
  return w;
}

template <class A, class B>
double worst_of(const A& a, const B& b) {
  REQUIRE(a.rows() == b.rows());
  REQUIRE(a.cols() == b.cols());
  double worst = 0;
  for (Eigen::Index i = 0; i < a.rows(); ++i)
    for (Eigen::Index j = 0; j < a.cols(); ++j) worst = std::max(worst, std::abs(a(i, j) - b(i, j)));
  return worst;
}

}  // namespace

TEST_CASE("block math: the tiled product equals x · W + b, in either stored layout") {
  std::mt19937 rng(3);
  const MatX<double> x = random_matrix(600, 70, rng), w = random_matrix(70, 300, rng);
  const detail::RowX<double> b = random_matrix(1, 300, rng);
  MatX<double> plain(600, 300);
  for (int i = 0; i < 600; ++i)
    for (int j = 0; j < 300; ++j) {
      double sum = 0;
      for (int k = 0; k < 70; ++k) sum += x(i, k) * w(k, j);
      plain(i, j) = sum + b(j);
    }
  const MatX<double> wt = w.transpose();
  for (bool transposed : {false, true}) {
    INFO((transposed ? "stored [out, in]" : "stored [in, out]"));
    const detail::Weight<double> weight = weight_of(transposed ? wt : w, transposed);
    const MatX<double> two = detail::affine(x, weight, b, 2), one = detail::affine(x, weight, b, 1);
    const double worst = worst_of(two, plain);
    INFO("worst |tiled - plain| = " << worst);
    CHECK(worst <= 1e-12);
    CHECK((one.array() == two.array()).all());
  }
}

TEST_CASE("block math: layer and RMS norms equal their definitions row by row") {
  std::mt19937 rng(4);
  const MatX<double> x = random_matrix(600, 50, rng) * 3.0;
  const detail::RowX<double> w = random_matrix(1, 50, rng), b = random_matrix(1, 50, rng);
  const double eps = 1e-5;
  MatX<double> ln(600, 50), rms(600, 50);
  for (int i = 0; i < 600; ++i) {
    double mean = 0, sq = 0;
    for (int j = 0; j < 50; ++j) mean += x(i, j) / 50;
    double var = 0;
    for (int j = 0; j < 50; ++j) var += (x(i, j) - mean) * (x(i, j) - mean) / 50, sq += x(i, j) * x(i, j) / 50;
    for (int j = 0; j < 50; ++j) {
      ln(i, j) = (x(i, j) - mean) / std::sqrt(var + eps) * w(j) + b(j);
      rms(i, j) = x(i, j) / std::sqrt(sq + eps) * w(j);
    }
  }
  const double worst_ln = worst_of(detail::layer_norm(x, w, b, eps), ln), worst_rms = worst_of(detail::rms_norm(x, w, eps), rms);
  INFO("worst: layer norm " << worst_ln << ", RMS norm " << worst_rms);
  CHECK(worst_ln <= 1e-12);
  CHECK(worst_rms <= 1e-12);
}
