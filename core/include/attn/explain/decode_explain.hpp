// Explains one cell of a KV-cache decode step (attn/decode/decode.hpp) with its
// real arithmetic, as explain() does for a Trace, and says for every key or
// value row whether it was reused from the cache or computed this step.
#pragma once

#include "attn/decode/decode.hpp"
#include "attn/explain/explain.hpp"

namespace attn {

// Sources name the step's own stages (k_cache, step_q...) and the inputs
// (x, w_q...) by kind; the row of x is the token decoded. Throws
// std::out_of_range naming the problem when the stage, head or cell does
// not exist in this step.
Explanation explain_decode(const DecodeStep& step, const Scenario& scenario, const StageRef& stage, int row, int col);

}  // namespace attn
