// What a score is divided by before the softmax, by the scene's scaling:
// √d_k, the temperature τ, or 1. One rule for the trace's scaled stage, the
// KV cache's decode, the overflow bound and the score's explanation.
#pragma once

#include "attn/scenario/scenario.hpp"

namespace attn {

double score_divisor(const Scenario& s, int d_k);

}  // namespace attn
