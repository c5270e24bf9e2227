// Rotary position embeddings (RoFormer; Su et al. 2021) as plain functions:
// the trace's rotated Q and K, the KV cache's rows, the explanations and the
// dial view all turn vectors with these, so each shows the same numbers.
#pragma once

#include <optional>

#include "attn/matrix.hpp"
#include "attn/scenario.hpp"

namespace attn {

// How many of a head's d_k dimensions are rotated: ⌊fraction · d_k⌋, as
// GPT-NeoX counts them (validate() requires it even and at least 2).
int rope_dims(const Rope& rope, int d_k);

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

}  // namespace attn
