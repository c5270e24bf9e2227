// Positional information. Attention alone is permutation equivariant, so
// order must be injected: either added to the inputs (sinusoidal) or as a
// distance penalty on the scores (ALiBi).
#include "compute/positions/positional.hpp"

#include <cmath>
#include <cstdlib>

namespace attn::detail {

double sinusoidal_angle(int pos, int dim, int d) {
  const int pair = dim - dim % 2;  // 2i for both sin (2i) and cos (2i+1)
  return pos / std::pow(10000.0, static_cast<double>(pair) / d);
}

Mat sinusoidal_encoding(int n, int d) {
  Mat pe(n, d);
  for (int pos = 0; pos < n; ++pos)
    for (int k = 0; k < d; ++k) {
      const double a = sinusoidal_angle(pos, k, d);
      pe(pos, k) = k % 2 == 0 ? std::sin(a) : std::cos(a);
    }
  return pe;
}

double alibi_slope(int head, int n_heads) {
  return std::pow(2.0, -8.0 * (head + 1) / n_heads);
}

Mat alibi_bias(int n_q, int n_k, double slope) {
  Mat b(n_q, n_k);
  for (int i = 0; i < n_q; ++i)
    for (int j = 0; j < n_k; ++j) b(i, j) = -slope * std::abs(i - j);
  return b;
}

}  // namespace attn::detail
