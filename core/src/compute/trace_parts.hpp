// Internal: compute_trace in its three parts (inputs, heads, output), so
// update_trace can redo just the parts an edit touches with the very same
// code, which is what makes an updated trace equal a fresh one.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "attn/compute/trace.hpp"
#include "compute/head_stages.hpp"

namespace attn::detail {

// An empty trace of `s`'s shape and options, ready for its stages.
Trace start_trace(const Scenario& s);

// Cells blocked by the scenario's mask and key padding; empty when none.
BoolMat build_blocked(const Scenario& s, const Dims& d);

// Appends X (and the context) with positional encodings; returns what the heads read.
HeadInputs push_inputs(Trace& t, const Scenario& s);

// What the heads read, taken from a trace that holds the inputs and at
// least one head (shared, not copied).
HeadInputs inputs_of(const Trace& t);

// Appends the stages, softmax statistics and notes of `heads` (every head
// when empty), in that order; t.softmax gets an entry for every head.
// Throws Cancelled when progress->cancel is set before every head is done.
void push_heads(Trace& t, const Scenario& s, const HeadInputs& in, Progress* progress,
                const std::vector<int>& heads = {});

// The stages, softmax statistics and notes of some heads, computed on the
// machine's cores; a head that failed carries its error.
std::vector<HeadStages> compute_heads(const Scenario& s, const Dims& d, const HeadInputs& in,
                                      const std::vector<int>& heads, Progress* progress);

// The output before an edit of some heads' weights, to update it from.
struct OutputBefore {
  std::shared_ptr<const Mat> concat, output;
  std::vector<int> heads;  // the heads whose outputs changed
  double drift = 0;        // Trace::output_drift of `output`
};

// The largest Trace::output_drift, relative to the output's largest value,
// kept before the output is computed whole again: at about an ulp of the
// largest value an update, some tens of updates, so every value stays
// within 1e-14 of the largest, far inside the 1e-12 the tests allow.
constexpr double kMaxOutputDrift = 1e-14;

// Appends concat, W_O and the output, from the head outputs already in `t`,
// on at most `max_threads` threads (0: no cap below set_compute_threads).
// With `before`, the output is before's plus the change in those heads'
// columns of concat times their rows of W_O: a product heads/changed times
// smaller, equal to concat · W_O to rounding (see update.cpp), unless the
// drift would pass kMaxOutputDrift, when it is computed whole.
void push_output(Trace& t, const Scenario& s, const Labels& queries, int max_threads = 0,
                 const OutputBefore* before = nullptr);

// concat · W_O in tiles whose size depends only on the shape
// (tiled_product), so the tiles can run on any number of threads with the
// same result bit for bit (Eigen's kernels may round differently for a
// differently shaped product, so the tiles are the same whether threaded or
// not).
Mat output_product(const Mat& concat, const Mat& w_o, int max_threads = 0);

}  // namespace attn::detail
