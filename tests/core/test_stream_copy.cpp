// The streaming copy of a block of scores (core/src/execution/stream_copy.hpp):
// the copy is exact wherever the block starts and however many rows it has
// (aligned or not, whole vectors or a tail), the rows around it are left as
// they were, and the largest |value| it returns matches Eigen's, NaN included.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <random>

#include "execution/stream_copy.hpp"

namespace {

attn::Mat uniform_block(Eigen::Index rows, Eigen::Index cols, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-50.0, 50.0);
  attn::Mat m(rows, cols);
  for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = u(rng);
  return m;
}

}  // namespace

TEST_CASE("streaming copy: exact at every start row and length, and the rows around it untouched") {
  // Starts and lengths that put the first aligned store anywhere in a vector,
  // and leave tails of every length up to a vector.
  for (Eigen::Index r0 : {0, 1, 3, 7, 8, 13}) {
    for (Eigen::Index rows : {1, 2, 7, 8, 9, 31, 64, 67}) {
      const attn::Mat block = uniform_block(rows, 5, static_cast<unsigned>(r0 * 100 + rows));
      const Eigen::Index height = r0 + rows + 3;
      attn::Mat dst = attn::Mat::Constant(height, 5, 7.25);
      const double largest = attn::detail::copy_rows_streaming(block, dst, r0);
      INFO("r0 " << r0 << ", rows " << rows);
      CHECK((dst.middleRows(r0, rows).array() == block.array()).all());
      CHECK((dst.topRows(r0).array() == 7.25).all());
      CHECK((dst.bottomRows(3).array() == 7.25).all());
      CHECK(largest == block.cwiseAbs().maxCoeff());
    }
  }
}

TEST_CASE("streaming copy: a NaN anywhere makes the largest value NaN, and infinities count") {
  for (Eigen::Index at : {0, 5, 16, 38}) {  // first, middle and last rows: plain copies and vectors, whatever the lane count
    attn::Mat block = uniform_block(39, 3, 9);
    block(at, 1) = std::nan("");
    attn::Mat dst(41, 3);
    const double largest = attn::detail::copy_rows_streaming(block, dst, 1);
    INFO("NaN at row " << at);
    CHECK(std::isnan(largest));
    CHECK(std::isnan(dst(at + 1, 1)));
  }
  attn::Mat block = uniform_block(20, 2, 4);
  block(11, 0) = -std::numeric_limits<double>::infinity();
  attn::Mat dst(20, 2);
  CHECK(attn::detail::copy_rows_streaming(block, dst, 0) == std::numeric_limits<double>::infinity());
  attn::Mat empty_dst(4, 0);
  CHECK(attn::detail::copy_rows_streaming(attn::Mat(0, 0), empty_dst, 0) == 0.0);
}
