#pragma once
// The element-wise pieces of a transformer block, as the published model
// definitions write them: LayerNorm, RMSNorm, the activations and a matrix
// product split over threads (RoPE is the core's attn::rotate_rope_rows).
#include <cmath>

#include "attn/hf/checkpoint/model_config.hpp"
#include "forward/tensor_load.hpp"

namespace attn::hf::detail {

// (x - mean) / sqrt(var + eps) * w + b per row, var without Bessel's correction.
template <class S>
MatX<S> layer_norm(const MatX<S>& x, const RowX<S>& w, const RowX<S>& b, double eps);
// x / sqrt(mean(x^2) + eps) * w per row (Llama, Qwen2, Mistral).
template <class S>
MatX<S> rms_norm(const MatX<S>& x, const RowX<S>& w, double eps);
// A next-token score as the model gives it: Gemma 2 caps its logits as it
// caps attention's scores, c·tanh(l / c); others pass it unchanged.
template <class S>
S capped_logit(const ModelConfig& c, S logit) {
  if (c.final_softcap <= 0) return logit;
  const S cap = static_cast<S>(c.final_softcap);
  return cap * std::tanh(logit / cap);
}
template <class S>
void activate(MatX<S>& x, Activation a);  // in place; the gated ones apply SiLU or GELU only
// x * w (+ bias), in fixed tiles of rows and columns spread over threads:
// the same blocks whatever the thread count, so results are identical.
template <class S>
MatX<S> affine(const MatX<S>& x, const Weight<S>& w, const RowX<S>& bias, int threads);

}  // namespace attn::hf::detail
