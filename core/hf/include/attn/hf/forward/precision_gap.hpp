#pragma once
// How far the app's float32 attention weights are from float64's on one
// text, measured, not assumed: the Model view computes its overview in
// float32 (as PyTorch runs these checkpoints) and states this figure for the
// open model. In PyTorch float32, GPT-2 small drifts 2.3e-4 by layer 11 at
// 1,001 tokens; a fixed bound would be wrong for some model and text.
#include <functional>
#include <vector>

#include "attn/hf/forward/forward.hpp"

namespace attn::hf {

struct PrecisionGap {
  double max_abs = 0;  // the largest |float32 - float64| over every weight of every head
  int layer = -1, head = -1, query = -1, key = -1;  // where it is (-1: no weights compared)
  bool cancelled = false;
};

// Runs the float64 pass on `f32.ids` one layer at a time against `f32`,
// which must hold every layer's attentions; memory stays at one layer's
// float64 weights. `progress` as ForwardOptions::progress (false cancels).
// With `pass`, the float64 pass is handed back with each layer's input kept
// (keep_inputs; its weights dropped once compared): a head's float64 scene
// is then cut from it, or resumed from it, instead of run again.
PrecisionGap float_precision_gap(const Checkpoint& ck, const ForwardResult<float>& f32,
                                 const std::vector<HeadRef>& heads_off, AblationMode mode,
                                 const std::function<bool(int layers_done)>& progress = {},
                                 ForwardResult<double>* pass = nullptr);

}  // namespace attn::hf
