// Internal: positional information, as an encoding added to the inputs
// (sinusoidal) or as a bias added to the scores (ALiBi).
#pragma once

#include "attn/base/matrix.hpp"

namespace attn::detail {

// PE(pos, 2i) = sin(pos / 10000^(2i/d)), PE(pos, 2i+1) = cos(same angle).
Mat sinusoidal_encoding(int n, int d);
double sinusoidal_angle(int pos, int dim, int d);

// ALiBi slope of head h (0-based) among n_heads: 2^(-8(h+1)/n_heads).
double alibi_slope(int head, int n_heads);
// bias[i][j] = -slope * |i - j|: nearer keys are penalised less.
Mat alibi_bias(int n_q, int n_k, double slope);

}  // namespace attn::detail
