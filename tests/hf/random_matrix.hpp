// Seeded normal-random matrices for the attn_hf unit tests.
#pragma once

#include <random>

#include "attn/hf/forward/forward.hpp"

inline attn::hf::MatX<double> random_matrix(int rows, int cols, std::mt19937& rng) {
  std::normal_distribution<double> d;
  attn::hf::MatX<double> m(rows, cols);
  for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = d(rng);
  return m;
}
