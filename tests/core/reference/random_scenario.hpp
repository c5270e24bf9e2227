// Seeded random scenarios for the reference comparison table: one small
// struct says the shapes and options of a case, and make_scenario fills in
// deterministic numbers so every run checks the same values.
#pragma once

#include <string>

#include "attn/scenario/scenario.hpp"

namespace ref {

enum class PaddingKind { None, LastKey, AllKeys };

struct CaseSpec {
  std::string name;
  int n_q = 3;
  int n_k = 3;        // used when cross (otherwise n_k = n_q)
  int d_model = 4;
  int d_ctx = 4;      // used when cross
  int d_k = 3, d_v = 3;
  int n_heads = 0;    // 0: no projections (basic attention)
  int d_out = 0;      // 0: no W_O
  bool output_bias = false;  // W_O's bias b_O (needs d_out > 0); drawn last, so other numbers stay put
  bool cross = false;
  attn::MaskKind mask = attn::MaskKind::None;
  bool full_row = false;  // custom mask blocks the whole first row
  PaddingKind padding = PaddingKind::None;
  attn::MaskMode mode = attn::MaskMode::BeforeSoftmax;
  attn::ScaleMode scale = attn::ScaleMode::SqrtDk;
  double temperature = 1.0;
  double softcap = 0;  // the scaled scores' soft cap (Gemma 2's), 0 for none
  attn::ScoreFn score = attn::ScoreFn::Dot;
  int d_att = 0;      // additive: 0 uses the default W = U = I, v = 1
  attn::Positional positional = attn::Positional::None;
  attn::SoftmaxAxis axis = attn::SoftmaxAxis::Keys;
  // Modern attention: key/value heads (0: one per head), RoPE, the window
  // (with sinks) and the stride of those mask kinds.
  int n_kv_heads = 0;
  bool rope = false;
  attn::RopePairing pairing = attn::RopePairing::Half;
  double rope_fraction = 1.0;
  int rope_offset = 0;
  double rope_base = 10000;
  int window = 0, sinks = 0, stride = 0;
  unsigned seed = 1;
};

// Uniform numbers in [-1, 1) from a fixed seed; shapes obey the spec, so the
// result passes attn::validate.
attn::Scenario make_scenario(const CaseSpec& c);

// One-line summary of a case for failure messages.
std::string describe(const CaseSpec& c);

}  // namespace ref
