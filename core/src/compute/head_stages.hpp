// Internal: one head of the pipeline, computed on its own (possibly on its
// own thread) into a list of stages the trace appends in order.
#pragma once

#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "attn/compute/trace.hpp"

namespace attn::detail {

// What every head reads: the sequences (shared, never copied), their stage
// ids and labels, and the mask.
struct HeadInputs {
  std::shared_ptr<const Mat> x, kv;  // queries' sequence; keys' and values' sequence
  StageKind x_id = StageKind::x, kv_id = StageKind::x;  // x, or the context for K and V
  Labels queries, keys;  // token labels, shared by every stage that shows them
  // Index labels of the feature axes, made once for every head.
  Labels d_model_dims, d_ctx_dims, d_k_dims, d_v_dims;
  SharedMask blocked;
  // Grouped-query attention: each key/value head's K (rotated, with RoPE)
  // and V as its group's first head computed them, by key/value head.
  std::vector<std::shared_ptr<const Mat>> shared_k, shared_v;
};

// Fills the index labels of the feature axes for dims `d`.
void set_dim_labels(HeadInputs& in, const Dims& d);

// w_q .. head_output with every optional stage (RoPE, ALiBi, the unmasked softmax).
constexpr size_t kMostStagesPerHead = 18;

struct HeadStages {
  std::vector<Stage> stages;  // w_q ... head_output, in trace order
  SoftmaxStats softmax;
  std::vector<std::string> notes;
  std::shared_ptr<const Mat> k, v;  // the K (rotated) and V the scores and weights · V read
  std::exception_ptr error;   // a ComputeError, rethrown by the caller in head order
};

class ScratchPool;
// `scratch` (may be null) lends the head its working matrices. Its row
// blocks run on the calling thread, joined by run_heads' threads that have
// no head left (help_board.hpp).
HeadStages compute_head(const Scenario& s, const Dims& d, int h, const HeadInputs& in, ScratchPool* scratch);

}  // namespace attn::detail
