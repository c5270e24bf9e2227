// Small deterministic scenarios shared by the model-layer tests.
#pragma once

#include "attn/trace.hpp"

namespace test_scenes {

// 3 tokens, d_model 4, one projected head (d_k 2, d_v 3), causal mask.
inline attn::Scenario small_projected() {
  attn::Scenario s;
  s.x.resize(3, 4);
  s.x << 0.1, 0.5, -0.3, 0.8, 0.9, -0.2, 0.4, 0.0, -0.6, 0.3, 0.7, 0.2;
  attn::HeadWeights h;
  h.w_q.resize(4, 2);
  h.w_q << 0.2, -0.5, 0.7, 0.1, -0.3, 0.4, 0.6, 0.9;
  h.w_k.resize(4, 2);
  h.w_k << -0.1, 0.3, 0.5, -0.7, 0.8, 0.2, 0.4, -0.6;
  h.w_v.resize(4, 3);
  h.w_v << 0.3, 0.1, -0.2, 0.5, 0.6, 0.4, -0.7, 0.2, 0.9, 0.1, -0.4, 0.3;
  s.heads.push_back(h);
  s.mask = attn::MaskKind::Causal;
  return s;
}

}  // namespace test_scenes
