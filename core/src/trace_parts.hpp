// Internal: compute_trace in its three parts (inputs, heads, output), so
// update_trace can redo just the parts an edit touches with the very same
// code, which is what makes an updated trace equal a fresh one.
#pragma once

#include <string>
#include <vector>

#include "attn/trace.hpp"
#include "head_stages.hpp"

namespace attn::detail {

// Cells blocked by the scenario's mask and key padding; empty when none.
BoolMat build_blocked(const Scenario& s, const Dims& d);

// Appends X (and the context) with positional encodings; returns what the heads read.
HeadInputs push_inputs(Trace& t, const Scenario& s);

// Appends every head's stages, softmax statistics and notes, in head order.
// Throws Cancelled when progress->cancel is set before every head is done.
void push_heads(Trace& t, const Scenario& s, const HeadInputs& in, Progress* progress);

// Appends concat, W_O and the output, from the head outputs already in `t`.
void push_output(Trace& t, const Scenario& s, const std::vector<std::string>& queries);

}  // namespace attn::detail
