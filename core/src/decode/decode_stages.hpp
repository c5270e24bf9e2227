// Internal: making a decode step's Stage records (labels, titles, the
// finiteness promise), so decode.cpp reads as the formulas it computes.
#pragma once

#include <string>
#include <vector>

#include "attn/decode/decode.hpp"

namespace attn::detail {

// Labels and shapes every stage of step t shares.
struct StepScene {
  const Scenario& s;
  Dims d;
  int t = 0;
  Labels new_token;  // the one row of a step stage: token t's label
  Labels cached;     // the caches' rows: tokens 0..t
  Labels dims_k, dims_v;
};

StepScene step_scene(const Scenario& s, int t);

// Appends a stage titled from the stage table. Its cells must be finite,
// except −∞ where `blocked` marks a masked logit (a Trace's promise too);
// otherwise throws ComputeError naming the step, stage and cell. The
// reference is valid until the next push.
Stage& push_step_stage(DecodeStep& step, const StepScene& sc, StageKind id, int head, std::string formula,
                       std::vector<StageRef> inputs, Mat m, Labels rows, Labels cols,
                       ValueKind kind = ValueKind::Signed, SharedMask blocked = {});

}  // namespace attn::detail
