// Internal: assembling Stage records with labels and overflow checks, so the
// pipeline in compute.cpp reads as the sequence of formulas it implements.
#pragma once

#include <string>
#include <vector>

#include "attn/compute/trace.hpp"

namespace attn::detail {

// Labels for token axes (given tokens, or t0, t1, ... / c0, c1, ...) and for
// feature axes (0, 1, 2, ...). Index labels are made once per length and
// shared by every trace: a 16-token trace asked for about 200 of them, 4% of
// its time spent writing "0", "1", "2"...
std::vector<std::string> token_labels(const std::vector<std::string>& given, int n, const char* prefix);
Labels index_labels(int n);

// A stage's title and formula in the plain case, from the stage table
// (attn/compute/stage_kind.hpp); the variants an option makes (no projection,
// additive scores, a mask after the softmax) are written beside the code
// that makes them.
std::string plain_title(StageKind kind);
std::string plain_formula(StageKind kind);

struct StageSpec {
  StageKind id = StageKind::x;
  int head = -1;
  std::string title;
  std::string formula;
  std::vector<StageRef> inputs;
  ValueKind kind = ValueKind::Signed;
  Labels rows, cols;
};

// Appends a stage after checking its values are finite. -inf is allowed only
// in cells that `blocked` marks (the masked logits); anything else that is
// not finite throws ComputeError naming the stage and the cell. `checked`:
// the caller has already proved every value finite (a derived stage whose
// bound is finite), so the pass over the cells is skipped.
Stage& push_stage(Trace& trace, StageSpec spec, StageValues value, SharedMask blocked = {},
                  bool allow_blocked_minus_inf = false, bool checked = false);

}  // namespace attn::detail
