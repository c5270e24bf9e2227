// The residual stream as a layer's attention sees it (attention_input.hpp).
#include "forward/attention_input.hpp"

#include "forward/block_math.hpp"

namespace attn::hf::detail {

Rope checkpoint_rope(const ModelConfig& c) {
  Rope rope;
  rope.on = c.rope;
  rope.pairing = RopePairing::Half;
  rope.fraction = 1.0;
  rope.frequencies = c.rope_inv_freq;
  return rope;
}

template <class S>
MatX<S> family_norm(const ModelConfig& c, const MatX<S>& x, const RowX<S>& w, const RowX<S>& b) {
  if (c.norm == NormKind::LayerNorm) return layer_norm<S>(x, w, b, c.norm_eps);
  // Gemma's RMSNorm scales by (1 + w), computed first as transformers does.
  return rms_norm<S>(x, c.norm_adds_one ? RowX<S>((w.array() + S(1)).matrix()) : w, c.norm_eps);
}

template <class S>
MatX<S> attention_input(const ModelConfig& c, const LayerWeights<S>& w, const MatX<S>& input) {
  return c.pre_norm ? family_norm<S>(c, input, w.norm1_w, w.norm1_b) : input;
}

#define ATTN_HF_INSTANTIATE(S)                                                                              \
  template MatX<S> family_norm<S>(const ModelConfig&, const MatX<S>&, const RowX<S>&, const RowX<S>&);    \
  template MatX<S> attention_input<S>(const ModelConfig&, const LayerWeights<S>&, const MatX<S>&);
ATTN_HF_INSTANTIATE(float)
ATTN_HF_INSTANTIATE(double)
#undef ATTN_HF_INSTANTIATE

}  // namespace attn::hf::detail
