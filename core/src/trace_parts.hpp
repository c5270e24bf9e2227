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

// Appends concat, W_O and the output, from the head outputs already in `t`,
// on at most `max_threads` threads (0: no cap below set_compute_threads).
void push_output(Trace& t, const Scenario& s, const Labels& queries, int max_threads = 0);

// concat · W_O in blocks of rows whose size depends only on the shape, so
// the blocks can run on any number of threads with the same result bit for
// bit (Eigen's kernels may round differently for a differently shaped
// product, so the blocks are the same whether threaded or not).
Mat output_product(const Mat& concat, const Mat& w_o, int max_threads = 0);

}  // namespace attn::detail
