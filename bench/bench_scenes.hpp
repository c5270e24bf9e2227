// The benchmark's shapes and scenes: seeded random self-attention with
// d_k = d_v = d_model / heads and W_O, as nn.MultiheadAttention uses, and
// the four edits whose cost the edit table measures.
#pragma once

#include <random>
#include <string>
#include <vector>

#include "attn/compute/trace.hpp"

namespace bench {

struct Shape {
  int n, d_model, heads;
};

inline std::vector<Shape> shapes() { return {{16, 64, 8}, {64, 64, 8}, {512, 512, 8}, {2048, 768, 12}}; }

inline attn::Scenario scene(const Shape& s, bool causal) {
  std::mt19937 rng(42);
  std::normal_distribution<double> d;
  auto random = [&](int rows, int cols, double scale) {
    attn::Mat m(rows, cols);
    for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = d(rng) * scale;
    return m;
  };
  const int dk = s.d_model / s.heads;
  attn::Scenario sc;
  sc.x = random(s.n, s.d_model, 1.0);
  for (int h = 0; h < s.heads; ++h) {
    const double w = 1.0 / std::sqrt(static_cast<double>(s.d_model));
    sc.heads.push_back({random(s.d_model, dk, w), random(s.d_model, dk, w), random(s.d_model, dk, w)});
  }
  sc.w_o = random(s.heads * dk, s.d_model, 1.0 / std::sqrt(static_cast<double>(s.d_model)));
  sc.mask = causal ? attn::MaskKind::Causal : attn::MaskKind::None;
  return sc;
}

// The same shape with modern options: `kv_heads` key/value heads shared by
// groups of query heads (the group's first head keeps its W_K and W_V),
// RoPE on the queries and keys, and a sliding window of `window` keys (0: causal).
inline attn::Scenario modern_scene(const Shape& s, int kv_heads, bool rope, int window) {
  attn::Scenario sc = scene(s, true);
  const int group = s.heads / kv_heads;
  for (int h = 0; h < s.heads; ++h)
    if (h % group != 0) sc.heads[static_cast<size_t>(h)].w_k = attn::Mat(), sc.heads[static_cast<size_t>(h)].w_v = attn::Mat();
  sc.n_kv_heads = kv_heads == s.heads ? 0 : kv_heads;
  sc.rope.on = rope;
  if (window > 0) sc.mask = attn::MaskKind::SlidingWindow, sc.window = window;
  return sc;
}

// Multiply-adds counted twice: projections, Q·Kᵀ, weights·V and W_O.
inline double flops(const Shape& s) {
  const double n = s.n, d = s.d_model, h = s.heads, dk = d / h;
  return 2 * (3 * n * d * dk * h + n * n * dk * h + n * n * dk * h + n * d * d);
}

enum class EditKind { XValue, WqValue, MaskCell, Rename };

// The scene before an edit of this kind: a mask cell can only be edited in a
// custom mask, so that edit starts from the causal mask written out as one.
inline attn::Scenario before_edit(attn::Scenario s, EditKind kind) {
  if (kind != EditKind::MaskCell || s.mask == attn::MaskKind::Custom) return s;
  const int n = static_cast<int>(s.x.rows());
  s.custom_mask = attn::BoolMat::Constant(n, n, false);
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) s.custom_mask(i, j) = s.mask == attn::MaskKind::Causal;
  s.mask = attn::MaskKind::Custom;
  return s;
}

// `s` after one edit of this kind (s as before_edit returned it).
inline attn::Scenario edited(attn::Scenario s, EditKind kind) {
  const int n = static_cast<int>(s.x.rows());
  switch (kind) {
    case EditKind::XValue: s.x(n / 2, 1) += 0.25; break;
    case EditKind::WqValue: s.heads[0].w_q(1, 1) += 0.25; break;
    case EditKind::MaskCell: s.custom_mask(n / 2, 0) = !s.custom_mask(n / 2, 0); break;
    case EditKind::Rename:
      s.tokens.assign(static_cast<size_t>(n), "t");
      s.tokens[0] = "renamed";
      break;
  }
  return s;
}

// The trace after an edit, given the trace before it.
inline attn::Trace update(const attn::Trace& before, const attn::Scenario& old_scene, const attn::Scenario& new_scene) {
  return attn::update_trace(before, old_scene, new_scene);
}

}  // namespace bench
