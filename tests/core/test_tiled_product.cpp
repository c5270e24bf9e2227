// The tiled product behind concat · W_O (core/src/execution/head_pool.hpp):
// every tile is computed, the ragged last row block and column block
// included, the result matches a plain triple loop, and it is the same bit
// for bit on one thread and on several.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <random>

#include "attn/execution/parallel.hpp"
#include "execution/head_pool.hpp"

namespace {

attn::Mat seeded_normal(Eigen::Index rows, Eigen::Index cols, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> normal;
  attn::Mat m(rows, cols);
  for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = normal(rng);
  return m;
}

// The largest |got - a·b| over all cells, with a·b summed by plain loops in
// long double; prints the worst cell.
double worst_against_loops(const attn::Mat& got, const attn::Mat& a, const attn::Mat& b) {
  double worst = 0;
  Eigen::Index wr = 0, wc = 0;
  for (Eigen::Index r = 0; r < a.rows(); ++r)
    for (Eigen::Index c = 0; c < b.cols(); ++c) {
      long double sum = 0;
      for (Eigen::Index k = 0; k < a.cols(); ++k) sum += static_cast<long double>(a(r, k)) * b(k, c);
      const double off = std::abs(got(r, c) - static_cast<double>(sum));
      if (!(off <= worst)) worst = off, wr = r, wc = c;  // a NaN counts as worst
    }
  std::printf("tiled product: worst cell [%ld][%ld], off by %.3g\n", static_cast<long>(wr), static_cast<long>(wc), worst);
  return worst;
}

}  // namespace

TEST_CASE("tiled product: ragged tiles match plain loops, and one thread equals two bit for bit") {
  // 600 rows: blocks of 256, 256 and 88; 300 columns: tiles of 128, 128, 44.
  const attn::Mat a = seeded_normal(600, 96, 1);
  const attn::Mat wide = seeded_normal(140, 300, 2);
  const auto b = wide.middleRows(20, 96);  // a block of a larger matrix, as W_O's rows of one head are
  REQUIRE(attn::detail::kRowBlock == 256);
  REQUIRE(attn::detail::kColBlock == 128);

  attn::set_compute_threads(1);
  const attn::Mat one = attn::detail::tiled_product(a, b, 0);
  attn::set_compute_threads(3);  // more threads than this machine may have cores: still fixed tiles
  const attn::Mat three = attn::detail::tiled_product(a, b, 0);
  attn::set_compute_threads(0);

  REQUIRE(one.rows() == 600);
  REQUIRE(one.cols() == 300);
  // Sums of 96 products of unit normals: about 10 in size, so 1e-12 is
  // some thousand times the rounding a double sum of that length can make.
  CHECK(worst_against_loops(one, a, attn::Mat(b)) < 1e-12);
  CHECK(worst_against_loops(three, a, attn::Mat(b)) < 1e-12);
  CHECK((one.array() == three.array()).all());
}

TEST_CASE("tiled product: one tile and an empty product") {
  const attn::Mat a = seeded_normal(5, 4, 3), b = seeded_normal(4, 3, 4);
  CHECK(worst_against_loops(attn::detail::tiled_product(a, b, 0), a, b) < 1e-13);
  const attn::Mat none = attn::detail::tiled_product(attn::Mat(0, 4), b, 0);
  CHECK(none.rows() == 0);
  CHECK(none.cols() == 3);
}
