// Numbers and option sets for the FlashAttention tests' scenes.
#include "flash_scenes.hpp"

#include <random>

namespace flash_test {
namespace {

attn::Mat uniform(std::mt19937& rng, int rows, int cols) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  attn::Mat m(rows, cols);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) m(r, c) = u(rng);
  return m;
}

}  // namespace

attn::Scenario make_flash_scene(const SceneSpec& c) {
  std::mt19937 rng(c.seed);
  attn::Scenario s;
  s.x = uniform(rng, c.n_q, c.d_model);
  const int n_k = c.cross ? c.n_k : c.n_q;
  if (c.cross) s.context = uniform(rng, n_k, c.d_model);
  const int group = c.n_kv_heads > 0 ? c.n_heads / c.n_kv_heads : 1;
  for (int h = 0; h < c.n_heads; ++h) {
    attn::HeadWeights w;
    w.w_q = uniform(rng, c.d_model, c.d_k);
    if (h % group == 0) {  // a group's first head carries its keys' and values' weights
      w.w_k = uniform(rng, c.d_model, c.d_k);
      w.w_v = uniform(rng, c.d_model, c.d_v);
    }
    s.heads.push_back(w);
  }
  s.n_kv_heads = c.n_kv_heads;
  s.mask = c.mask;
  s.window = c.window, s.sinks = c.sinks, s.stride = c.stride;
  if (c.mask == attn::MaskKind::Custom) {
    std::bernoulli_distribution blocked(0.4);
    s.custom_mask = attn::BoolMat(c.n_q, n_k);
    for (int i = 0; i < c.n_q; ++i)
      for (int j = 0; j < n_k; ++j) s.custom_mask(i, j) = blocked(rng) || (c.custom_full_row && i == 1);
  }
  if (c.key_padding) {
    s.key_padding.assign(static_cast<size_t>(n_k), false);
    std::uniform_int_distribution<int> key(1, n_k - 1);  // key 0 stays open: causal rows keep a key
    s.key_padding[static_cast<size_t>(key(rng))] = true;
    s.key_padding[static_cast<size_t>(key(rng))] = true;
  }
  s.positional = c.positional;
  s.rope.on = c.rope;
  s.softcap = c.softcap;
  return s;
}

std::vector<SceneSpec> flash_cases() {
  using attn::MaskKind;
  using attn::Positional;
  std::vector<SceneSpec> cases;
  const auto add = [&](SceneSpec c) {
    c.seed = static_cast<unsigned>(cases.size() + 11);
    cases.push_back(c);
  };
  SceneSpec plain;
  plain.name = "no mask";
  add(plain);
  SceneSpec odd;
  odd.name = "no mask, one head, odd widths";
  odd.n_q = 7, odd.d_model = 3, odd.d_k = 2, odd.d_v = 5, odd.n_heads = 1;
  add(odd);
  SceneSpec causal;
  causal.name = "causal";
  causal.mask = MaskKind::Causal, causal.n_q = 6;
  add(causal);
  SceneSpec custom;
  custom.name = "custom with a fully blocked row";
  custom.mask = MaskKind::Custom, custom.custom_full_row = true, custom.n_q = 6;
  add(custom);
  SceneSpec window;
  window.name = "sliding window with a sink";
  window.mask = MaskKind::SlidingWindow, window.window = 2, window.sinks = 1, window.n_q = 7;
  add(window);
  SceneSpec strided;
  strided.name = "strided";
  strided.mask = MaskKind::Strided, strided.stride = 2, strided.n_q = 7;
  add(strided);
  SceneSpec padding;
  padding.name = "key padding, causal";
  padding.mask = MaskKind::Causal, padding.key_padding = true, padding.n_q = 6;
  add(padding);
  SceneSpec alibi;
  alibi.name = "ALiBi, causal";
  alibi.positional = Positional::Alibi, alibi.mask = MaskKind::Causal, alibi.n_heads = 4;
  add(alibi);
  SceneSpec sinusoidal;
  sinusoidal.name = "sinusoidal";
  sinusoidal.positional = Positional::Sinusoidal;
  add(sinusoidal);
  SceneSpec rope;
  rope.name = "RoPE, causal";
  rope.rope = true, rope.mask = MaskKind::Causal, rope.n_q = 6;
  add(rope);
  SceneSpec gqa;
  gqa.name = "grouped-query heads with RoPE";
  gqa.n_heads = 4, gqa.n_kv_heads = 2, gqa.rope = true;
  add(gqa);
  SceneSpec capped;
  capped.name = "soft cap 0.5, causal";
  capped.softcap = 0.5, capped.mask = MaskKind::Causal, capped.n_q = 6;
  add(capped);
  SceneSpec mqa;
  mqa.name = "multi-query, sliding window";
  mqa.n_heads = 3, mqa.n_kv_heads = 1, mqa.mask = MaskKind::SlidingWindow, mqa.window = 3;
  add(mqa);
  SceneSpec cross;
  cross.name = "cross-attention, 4 queries × 7 keys, padded";
  cross.cross = true, cross.n_q = 4, cross.n_k = 7, cross.key_padding = true;
  add(cross);
  SceneSpec cross_custom;
  cross_custom.name = "cross-attention, 7 queries × 3 keys, custom mask";
  cross_custom.cross = true, cross_custom.n_q = 7, cross_custom.n_k = 3, cross_custom.mask = MaskKind::Custom;
  cross_custom.custom_full_row = true;
  add(cross_custom);
  return cases;
}

}  // namespace flash_test
