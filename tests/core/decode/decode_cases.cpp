// The scenes of decode_cases.hpp. Shapes are small (up to 7 tokens, 4
// heads) so that every step of every case is checked in milliseconds.
#include "decode/decode_cases.hpp"

#include "random_scenario.hpp"

namespace decode_test {
namespace {

using attn::MaskKind;

ref::CaseSpec spec(unsigned seed, int heads, int d_k, int d_v, int d_out) {
  ref::CaseSpec c;
  c.n_q = 7, c.d_model = 5, c.n_heads = heads, c.d_k = d_k, c.d_v = d_v, c.d_out = d_out;
  c.mask = MaskKind::Causal;
  c.seed = seed;
  return c;
}

// Grouped-query attention: only the first head of each group keeps W_K, W_V.
attn::Scenario grouped(attn::Scenario s, int n_kv) {
  s.n_kv_heads = n_kv;
  const size_t group = s.heads.size() / static_cast<size_t>(n_kv);
  for (size_t h = 0; h < s.heads.size(); ++h)
    if (h % group != 0) s.heads[h].w_k = attn::Mat(), s.heads[h].w_v = attn::Mat();
  return s;
}

attn::Scenario with_rope(attn::Scenario s, attn::RopePairing pairing, double fraction, int offset) {
  s.rope.on = true;
  s.rope.pairing = pairing;
  s.rope.fraction = fraction;
  s.rope.offset = offset;
  return s;
}

}  // namespace

std::vector<Case> decodable_cases() {
  using attn::Positional;
  using attn::RopePairing;
  std::vector<Case> out;
  out.push_back({"causal, 2 heads, W_O", ref::make_scenario(spec(11, 2, 3, 3, 4))});
  {
    ref::CaseSpec c = spec(11, 2, 3, 3, 4);
    c.output_bias = true;
    out.push_back({"causal, 2 heads, W_O with its bias b_O", ref::make_scenario(c)});
  }
  {
    attn::Scenario s = ref::make_scenario(spec(17, 2, 3, 3, 4));
    s.softcap = 0.5;
    out.push_back({"causal, 2 heads, scores soft-capped at 0.5", s});
  }
  out.push_back({"causal, no W_O, d_k != d_v", ref::make_scenario(spec(12, 2, 4, 2, 0))});
  out.push_back({"causal, no projections", ref::make_scenario(spec(13, 0, 3, 3, 0))});
  {
    attn::Scenario s = ref::make_scenario(spec(14, 2, 3, 2, 3));
    s.mask = MaskKind::SlidingWindow, s.window = 3;
    out.push_back({"sliding window 3", s});
    s.sinks = 1;
    out.push_back({"sliding window 3 with 1 sink", s});
  }
  {
    attn::Scenario s = ref::make_scenario(spec(15, 1, 3, 3, 2));
    s.mask = MaskKind::Strided, s.stride = 2;
    out.push_back({"strided 2", s});
  }
  {
    // Key 0 padded: query 0 sees nothing, its weights are all 0.
    attn::Scenario s = ref::make_scenario(spec(16, 2, 3, 3, 3));
    s.key_padding.assign(7, false);
    s.key_padding[0] = s.key_padding[4] = true;
    out.push_back({"causal with key padding", s});
  }
  {
    attn::Scenario s = ref::make_scenario(spec(17, 2, 3, 3, 0));
    s.mask = MaskKind::Custom;
    s.custom_mask = attn::BoolMat::Constant(7, 7, false);
    for (int i = 0; i < 7; ++i)
      for (int j = 0; j < 7; ++j) s.custom_mask(i, j) = j > i || (i + j) % 3 == 1;
    out.push_back({"custom mask hiding later keys", s});
  }
  {
    ref::CaseSpec c = spec(18, 4, 3, 3, 4);
    c.positional = Positional::Alibi;
    out.push_back({"ALiBi, 4 heads", ref::make_scenario(c)});
    c.positional = Positional::Sinusoidal, c.seed = 19;
    out.push_back({"sinusoidal", ref::make_scenario(c)});
    c.n_heads = 0, c.seed = 20;
    out.push_back({"sinusoidal, no projections", ref::make_scenario(c)});
  }
  {
    ref::CaseSpec c = spec(21, 2, 6, 4, 3);
    c.scale = attn::ScaleMode::Temperature, c.temperature = 0.7;
    out.push_back({"temperature 0.7", ref::make_scenario(c)});
    c.scale = attn::ScaleMode::None, c.seed = 22;
    out.push_back({"no scaling", ref::make_scenario(c)});
  }
  const attn::Scenario base = ref::make_scenario(spec(23, 2, 8, 3, 4));
  out.push_back({"RoPE half pairs", with_rope(base, RopePairing::Half, 1.0, 0)});
  out.push_back({"RoPE interleaved", with_rope(base, RopePairing::Interleaved, 1.0, 0)});
  out.push_back({"RoPE half, partial 0.5, offset 5", with_rope(base, RopePairing::Half, 0.5, 5)});
  out.push_back({"RoPE interleaved, partial 0.5, offset 3", with_rope(base, RopePairing::Interleaved, 0.5, 3)});
  {
    ref::CaseSpec c = spec(26, 0, 4, 4, 0);
    c.d_model = 4;  // Q = K = X: RoPE turns pairs of X's own columns
    out.push_back({"RoPE, no projections", with_rope(ref::make_scenario(c), RopePairing::Half, 1.0, 2)});
  }
  const attn::Scenario four = ref::make_scenario(spec(24, 4, 4, 3, 5));
  out.push_back({"grouped-query, 2 of 4 heads", grouped(four, 2)});
  out.push_back({"multi-query, 1 of 4 heads", grouped(four, 1)});
  out.push_back({"multi-query, no W_O", grouped(ref::make_scenario(spec(25, 4, 4, 2, 0)), 1)});
  {
    attn::Scenario s = with_rope(grouped(four, 2), RopePairing::Interleaved, 0.5, 2);
    s.positional = Positional::Alibi;
    s.mask = MaskKind::SlidingWindow, s.window = 4, s.sinks = 1;
    out.push_back({"everything: GQA, RoPE, ALiBi, window with a sink", s});
  }
  return out;
}

}  // namespace decode_test
