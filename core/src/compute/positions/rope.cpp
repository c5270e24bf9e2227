// Rotary position embeddings (see attn/compute/rope.hpp). Both pairings turn the same
// angles; they differ only in which two dimensions form a pair, so a
// checkpoint's weights are read with the convention it was trained in.
#include "attn/compute/rope.hpp"

#include <cmath>

namespace attn {

double rope_theta(const Rope& rope, int rotated, int pair) {
  if (!rope.frequencies.empty()) return rope.frequencies[static_cast<std::size_t>(pair)];  // validate() sized it
  return std::pow(rope.base, -2.0 * pair / rotated);
}

std::optional<RopePair> rope_pair_of(const Rope& rope, int d_k, int dim) {
  const int r = rope_dims(rope, d_k);
  if (dim < 0 || dim >= r) return std::nullopt;
  RopePair p;
  if (rope.pairing == RopePairing::Half) {
    const int half = r / 2;
    p.pair = dim % half;
    p.a = p.pair;
    p.b = p.pair + half;
  } else {
    p.pair = dim / 2;
    p.a = 2 * p.pair;
    p.b = 2 * p.pair + 1;
  }
  p.is_a = dim == p.a;
  return p;
}

double rope_angle(const Rope& rope, int d_k, int row, int pair) {
  return static_cast<double>(rope.offset + row) * rope_theta(rope, rope_dims(rope, d_k), pair);
}

Mat apply_rope(const Mat& m, const Rope& rope, int first_row) {
  Mat out = m;
  rotate_rope_rows(out, rope, 1, first_row);
  return out;
}

}  // namespace attn
