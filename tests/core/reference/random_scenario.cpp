// Builds the seeded scenarios described by CaseSpec. Shapes that have no
// projections follow the spec's rule (Q = X, K = V = C), so widths are forced
// to agree there; everything else comes from the case.
#include "random_scenario.hpp"

#include <random>
#include <sstream>

namespace ref {
namespace {

struct Filler {
  std::mt19937_64 rng;
  std::uniform_real_distribution<double> dist{-1.0, 1.0};
  attn::Mat mat(int r, int c) {
    attn::Mat m(r, c);
    for (int i = 0; i < r; ++i)
      for (int j = 0; j < c; ++j) m(i, j) = dist(rng);
    return m;
  }
  attn::Vec vec(int n) {
    attn::Vec v(n);
    for (int i = 0; i < n; ++i) v(i) = dist(rng);
    return v;
  }
};

}  // namespace

attn::Scenario make_scenario(const CaseSpec& c) {
  Filler f{std::mt19937_64(c.seed)};
  attn::Scenario s;
  const int n_k = c.cross ? c.n_k : c.n_q;
  const bool projected = c.n_heads > 0;
  // Without projections the keys must be as wide as the queries.
  const int d_ctx = !c.cross ? c.d_model : (projected ? c.d_ctx : c.d_model);
  s.x = f.mat(c.n_q, c.d_model);
  if (c.cross) s.context = f.mat(n_k, d_ctx);
  // With shared key/value heads only each group's first head carries W_K, W_V.
  const int group = c.n_kv_heads > 0 ? c.n_heads / c.n_kv_heads : 1;
  for (int h = 0; h < c.n_heads; ++h) {
    if (h % group == 0) s.heads.push_back({f.mat(c.d_model, c.d_k), f.mat(d_ctx, c.d_k), f.mat(d_ctx, c.d_v)});
    else s.heads.push_back({f.mat(c.d_model, c.d_k), attn::Mat(), attn::Mat()});
  }
  s.n_kv_heads = c.n_kv_heads;
  s.rope.on = c.rope;
  s.rope.pairing = c.pairing;
  s.rope.fraction = c.rope_fraction;
  s.rope.offset = c.rope_offset;
  s.rope.base = c.rope_base;
  s.window = c.window, s.sinks = c.sinks, s.stride = c.stride;
  const int d_v = projected ? c.d_v : d_ctx;
  const int n_heads = projected ? c.n_heads : 1;
  if (c.d_out > 0) s.w_o = f.mat(n_heads * d_v, c.d_out);

  s.scale = c.scale;
  s.temperature = c.temperature;
  s.mask = c.mask;
  if (c.mask == attn::MaskKind::Custom) {
    s.custom_mask = attn::BoolMat::Constant(c.n_q, n_k, false);
    std::bernoulli_distribution coin(0.3);
    for (int i = 0; i < c.n_q; ++i)
      for (int j = 0; j < n_k; ++j) s.custom_mask(i, j) = coin(f.rng) || (c.full_row && i == 0);
  }
  if (c.padding != PaddingKind::None) {
    s.key_padding.assign(static_cast<size_t>(n_k), c.padding == PaddingKind::AllKeys);
    s.key_padding.back() = true;
  }
  s.mask_mode = c.mode;
  s.score = c.score;
  if (c.score == attn::ScoreFn::Additive && c.d_att > 0) {
    const int d_k = projected ? c.d_k : c.d_model;
    for (int h = 0; h < n_heads; ++h)
      s.additive.push_back({f.mat(d_k, c.d_att), f.mat(d_k, c.d_att), f.vec(c.d_att)});
  }
  s.positional = c.positional;
  s.softmax_axis = c.axis;
  s.softcap = c.softcap;
  if (c.output_bias && c.d_out > 0) s.output_bias = f.vec(c.d_out);
  return s;
}

std::string describe(const CaseSpec& c) {
  std::ostringstream os;
  os << c.name << " [n_q=" << c.n_q << " n_k=" << (c.cross ? c.n_k : c.n_q) << " d_model=" << c.d_model
     << " d_ctx=" << c.d_ctx << " d_k=" << c.d_k << " d_v=" << c.d_v << " heads=" << c.n_heads
     << " d_out=" << c.d_out << " b_O=" << c.output_bias << " cross=" << c.cross << " mask=" << static_cast<int>(c.mask)
     << " full_row=" << c.full_row << " padding=" << static_cast<int>(c.padding)
     << " mode=" << static_cast<int>(c.mode) << " scale=" << static_cast<int>(c.scale)
     << " tau=" << c.temperature << " softcap=" << c.softcap << " score=" << static_cast<int>(c.score) << " d_att=" << c.d_att
     << " positional=" << static_cast<int>(c.positional) << " axis=" << static_cast<int>(c.axis)
     << " kv_heads=" << c.n_kv_heads << " rope=" << c.rope << "/" << static_cast<int>(c.pairing) << "/"
     << c.rope_fraction << "/" << c.rope_offset << " window=" << c.window << " sinks=" << c.sinks
     << " stride=" << c.stride << " seed=" << c.seed << "]";
  return os.str();
}

}  // namespace ref
