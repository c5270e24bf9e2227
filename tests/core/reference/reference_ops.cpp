// Loop implementations of the reference building blocks. Each function
// mirrors one line of the stage spec so a reader can check it by eye; speed
// does not matter here, clarity and independence from the core do.
#include "reference_ops.hpp"

#include <cmath>
#include <cstdlib>
#include <limits>

namespace ref {

RMat sinusoidal(int n, int d) {
  RMat pe = zeros(n, d);
  for (int pos = 0; pos < n; ++pos) {
    for (int col = 0; col < d; ++col) {
      const int two_i = col - col % 2;  // columns 2i and 2i+1 share a frequency
      const double angle = pos / std::pow(10000.0, static_cast<double>(two_i) / d);
      pe[pos][col] = (col % 2 == 0) ? std::sin(angle) : std::cos(angle);
    }
  }
  return pe;
}

double alibi_slope(int head, int n_heads) {
  return std::pow(2.0, -8.0 * (head + 1) / n_heads);
}

RMat alibi_bias(int n_q, int n_k, int head, int n_heads) {
  const double m = alibi_slope(head, n_heads);
  RMat bias = zeros(n_q, n_k);
  for (int i = 0; i < n_q; ++i)
    for (int j = 0; j < n_k; ++j) bias[i][j] = -m * std::abs(i - j);
  return bias;
}

RMask blocked_cells(const attn::Scenario& s, int n_q, int n_k) {
  RMask blocked(static_cast<size_t>(n_q), std::vector<bool>(static_cast<size_t>(n_k), false));
  for (int i = 0; i < n_q; ++i) {
    for (int j = 0; j < n_k; ++j) {
      bool b = false;
      if (s.mask == attn::MaskKind::Causal && j > i) b = true;
      if (s.mask == attn::MaskKind::Custom && s.custom_mask(i, j)) b = true;
      // Mistral's window: the last `window` keys up to the query; StreamingLLM's sinks stay visible.
      if (s.mask == attn::MaskKind::SlidingWindow && (j > i || (j < i - s.window + 1 && j >= s.sinks))) b = true;
      // Sparse Transformer, strided: the previous `stride` keys, and every stride-th key before them.
      if (s.mask == attn::MaskKind::Strided && (j > i || (i - j >= s.stride && (i - j) % s.stride != 0))) b = true;
      if (!s.key_padding.empty() && s.key_padding[static_cast<size_t>(j)]) b = true;
      blocked[i][j] = b;
    }
  }
  return blocked;
}

RMat additive_scores(const RMat& q, const RMat& k, const RMat& w, const RMat& u,
                     const std::vector<double>& v) {
  const RMat qw = matmul(q, w);  // (n_q, d_att)
  const RMat ku = matmul(k, u);  // (n_k, d_att)
  RMat s = zeros(rows_of(q), rows_of(k));
  for (int i = 0; i < rows_of(q); ++i) {
    for (int j = 0; j < rows_of(k); ++j) {
      double sum = 0.0;
      for (size_t a = 0; a < v.size(); ++a) sum += v[a] * std::tanh(qw[i][a] + ku[j][a]);
      s[i][j] = sum;
    }
  }
  return s;
}

std::vector<double> softmax_vector(const std::vector<double>& logits) {
  const double neg_inf = -std::numeric_limits<double>::infinity();
  double m = neg_inf;
  for (double x : logits)
    if (x > m) m = x;
  std::vector<double> out(logits.size(), 0.0);
  if (m == neg_inf) return out;  // every entry blocked: defined as zeros
  double sum = 0.0;
  for (size_t t = 0; t < logits.size(); ++t) {
    out[t] = (logits[t] == neg_inf) ? 0.0 : std::exp(logits[t] - m);
    sum += out[t];
  }
  for (double& x : out) x /= sum;
  return out;
}

RMat softmax(const RMat& logits, attn::SoftmaxAxis axis) {
  if (axis == attn::SoftmaxAxis::Queries) return transpose(softmax(transpose(logits), attn::SoftmaxAxis::Keys));
  RMat out;
  for (const auto& row : logits) out.push_back(softmax_vector(row));
  return out;
}

RMat fill_blocked(const RMat& m, const RMask& blocked, double fill) {
  RMat out = m;
  for (int i = 0; i < rows_of(m); ++i)
    for (int j = 0; j < cols_of(m); ++j)
      if (blocked[i][j]) out[i][j] = fill;
  return out;
}

std::vector<int> fully_blocked_lines(const RMask& blocked, attn::SoftmaxAxis axis) {
  const int n_q = static_cast<int>(blocked.size());
  const int n_k = n_q == 0 ? 0 : static_cast<int>(blocked[0].size());
  const bool by_row = axis == attn::SoftmaxAxis::Keys;
  std::vector<int> lines;
  for (int a = 0; a < (by_row ? n_q : n_k); ++a) {
    bool all = true;
    for (int b = 0; b < (by_row ? n_k : n_q) && all; ++b) all = by_row ? blocked[a][b] : blocked[b][a];
    if (all) lines.push_back(a);
  }
  return lines;
}

RMat rotary(const RMat& m, const attn::Rope& rope) {
  // Written from RoFormer's definition, not from the core: the rotated
  // dimensions (⌊fraction·d⌋) form pairs, "half" pairing i with i + r/2 and
  // "interleaved" 2i with 2i+1; pair i at position p turns by p·base^(−2i/r).
  RMat out = m;
  const int d = cols_of(m);
  const int r = static_cast<int>(std::floor(rope.fraction * d + 1e-9));
  for (int row = 0; row < rows_of(m); ++row)
    for (int i = 0; i < r / 2; ++i) {
      const int a = rope.pairing == attn::RopePairing::Half ? i : 2 * i;
      const int b = rope.pairing == attn::RopePairing::Half ? i + r / 2 : 2 * i + 1;
      const double angle = (rope.offset + row) / std::pow(rope.base, 2.0 * i / r);
      const double xa = m[static_cast<size_t>(row)][static_cast<size_t>(a)];
      const double xb = m[static_cast<size_t>(row)][static_cast<size_t>(b)];
      out[static_cast<size_t>(row)][static_cast<size_t>(a)] = xa * std::cos(angle) - xb * std::sin(angle);
      out[static_cast<size_t>(row)][static_cast<size_t>(b)] = xa * std::sin(angle) + xb * std::cos(angle);
    }
  return out;
}

}  // namespace ref
