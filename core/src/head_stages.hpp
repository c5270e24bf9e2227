// Internal: one head of the pipeline, computed on its own (possibly on its
// own thread) into a list of stages the trace appends in order.
#pragma once

#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "attn/trace.hpp"

namespace attn::detail {

// What every head reads: the sequences (shared, never copied), their stage
// ids and labels, and the mask.
struct HeadInputs {
  std::shared_ptr<const Mat> x, kv;  // queries' sequence; keys' and values' sequence
  std::string x_id, kv_id;
  std::vector<std::string> queries, keys;  // token labels
  SharedMask blocked;
};

struct HeadStages {
  std::vector<Stage> stages;  // w_q ... head_output, in trace order
  SoftmaxStats softmax;
  std::vector<std::string> notes;
  std::exception_ptr error;   // a ComputeError, rethrown by the caller in head order
};

class ScratchPool;
// `scratch` (may be null) lends the head its n×n working matrix.
HeadStages compute_head(const Scenario& s, const Dims& d, int h, const HeadInputs& in, ScratchPool* scratch);

}  // namespace attn::detail
