// Rotary position embeddings (RoFormer; Su et al. 2021) as plain functions:
// the trace's rotated Q and K, the KV cache's rows, the explanations and the
// dial view all turn vectors with these, so each shows the same numbers.
#pragma once

#include <cmath>
#include <optional>

#include "attn/base/matrix.hpp"
#include "attn/scenario/scenario.hpp"

namespace attn {

// rope_dims (how many dimensions turn) sits with the Rope settings in
// attn/scenario/scenario.hpp: validate() needs it without the rotation.

// θ_i = base^(−2i/r) for pair i of r rotated dimensions, or rope.frequencies[i].
double rope_theta(const Rope& rope, int rotated, int pair);

// The pair a dimension belongs to: pair i, its two dimensions (the one that
// takes cos·x_a − sin·x_b first), and which of them `dim` is. nullopt for a
// dimension past the rotated ones (left as it is).
struct RopePair {
  int pair = 0;
  int a = 0, b = 0;  // out_a = x_a·cos − x_b·sin, out_b = x_b·cos + x_a·sin
  bool is_a = true;
};
std::optional<RopePair> rope_pair_of(const Rope& rope, int d_k, int dim);

// The angle pair i is turned by at row `row` of a sequence: (offset + row)·θ_i.
double rope_angle(const Rope& rope, int d_k, int row, int pair);

// Every row of `m` (row r at position offset + first_row + r) rotated.
Mat apply_rope(const Mat& m, const Rope& rope, int first_row = 0);

// The rotation itself, the one definition the trace and the real-model
// forward (attn::hf) share: each row of `x` (row r at position
// offset + first_row + r) holds `heads` heads of x.cols() / heads columns,
// and every head's rotated pairs turn by the same angles. The angle, cos and
// sin are taken in double whatever the scalar is (position × frequency loses
// digits fast in float at long contexts), then rounded to it once.
template <class Derived>
void rotate_rope_rows(Eigen::MatrixBase<Derived>& x, const Rope& rope, int heads, int first_row = 0) {
  using S = typename Derived::Scalar;
  const int d_k = static_cast<int>(x.cols()) / heads;
  const int r = rope_dims(rope, d_k);
  for (Eigen::Index row = 0; row < x.rows(); ++row) {
    const double position = static_cast<double>(rope.offset + first_row + row);
    for (int i = 0; i < r / 2; ++i) {
      const RopePair p = *rope_pair_of(rope, d_k, rope.pairing == RopePairing::Half ? i : 2 * i);
      const double angle = position * rope_theta(rope, r, i);
      const S c = static_cast<S>(std::cos(angle)), s = static_cast<S>(std::sin(angle));
      for (int h = 0; h < heads; ++h) {
        S& a = x(row, h * d_k + p.a);
        S& b = x(row, h * d_k + p.b);
        const S a0 = a, b0 = b;
        a = a0 * c - b0 * s;
        b = b0 * c + a0 * s;
      }
    }
  }
}

}  // namespace attn
