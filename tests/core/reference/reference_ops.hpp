// The attention-specific building blocks of the reference, each written
// straight from the stage spec: positional encodings, the ALiBi bias, the
// blocked-cell mask, additive scores and the masked softmax.
#pragma once

#include <vector>

#include "attn/scenario/scenario.hpp"
#include "ref_matrix.hpp"

namespace ref {

// PE(pos, 2i) = sin(pos / 10000^(2i/d)), PE(pos, 2i+1) = cos(same angle).
RMat sinusoidal(int n, int d);

// bias[i][j] = -m_h * |i - j| with m_h = 2^(-8 (h + 1) / n_heads).
double alibi_slope(int head, int n_heads);
RMat alibi_bias(int n_q, int n_k, int head, int n_heads);

// blocked[i][j] = causal (j > i) OR custom[i][j] OR key_padding[j].
RMask blocked_cells(const attn::Scenario& s, int n_q, int n_k);

// S[i][j] = sum_a v[a] * tanh((q_i W)[a] + (k_j U)[a]).
RMat additive_scores(const RMat& q, const RMat& k, const RMat& w, const RMat& u,
                     const std::vector<double>& v);

// Softmax of one vector where -inf entries get weight 0; an all -inf
// vector gives all zeros (the "fully masked" convention).
std::vector<double> softmax_vector(const std::vector<double>& logits);

// Softmax along the keys axis (each row) or the queries axis (each column).
RMat softmax(const RMat& logits, attn::SoftmaxAxis axis);

// Copy of m with blocked cells replaced by `fill`.
RMat fill_blocked(const RMat& m, const RMask& blocked, double fill);

// Rows (keys axis) or columns (queries axis) whose every cell is blocked.
std::vector<int> fully_blocked_lines(const RMask& blocked, attn::SoftmaxAxis axis);

// Rows of m turned by rotary position embeddings (row r at position offset + r).
RMat rotary(const RMat& m, const attn::Rope& rope);

}  // namespace ref
