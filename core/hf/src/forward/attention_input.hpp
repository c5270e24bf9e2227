#pragma once
// What a layer's attention reads from the residual stream entering it: the
// family's norm of it (pre-norm families) or the stream itself (BERT). One
// rule for the forward pass and for a scene cut from a pass that kept only
// each layer's input, so both get the same bits.
#include "attn/hf/checkpoint/model_config.hpp"
#include "attn/scenario/scenario.hpp"
#include "forward/layer_weights.hpp"

namespace attn::hf::detail {

// The checkpoint's rotary positions as the core's settings: Llama's half
// pairing over the whole head, each pair's frequency as config.json gives it
// (rescaled or not), so the forward turns Q and K with the trace's one rule.
Rope checkpoint_rope(const ModelConfig& c);

// LayerNorm or RMSNorm, as the config names it (RMSNorm has no bias).
template <class S>
MatX<S> family_norm(const ModelConfig& c, const MatX<S>& x, const RowX<S>& w, const RowX<S>& b);

// (n, d): norm1 of `input` for pre-norm families, `input` itself for BERT.
template <class S>
MatX<S> attention_input(const ModelConfig& c, const LayerWeights<S>& w, const MatX<S>& input);

}  // namespace attn::hf::detail
