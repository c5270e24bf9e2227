// Internal: numerically stable masked softmax over one axis.
#pragma once

#include <vector>

#include "attn/scenario.hpp"
#include "attn/trace.hpp"

namespace attn::detail {

struct SoftmaxResult {
  Mat weights;             // (n_q, n_k)
  SoftmaxStats stats;      // max, exp, sum per normalised line
  std::vector<int> empty;  // lines (rows or columns) with every entry blocked
};

// Blocked entries get weight exactly 0; a line with every entry blocked gets
// all-zero weights instead of 0/0. `blocked` may be empty (nothing blocked).
SoftmaxResult masked_softmax(const Mat& logits, const BoolMat& blocked, SoftmaxAxis axis);

}  // namespace attn::detail
