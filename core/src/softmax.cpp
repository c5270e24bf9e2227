// Stable softmax: subtracting the line maximum before exp keeps every
// exponent <= 0, so exp never overflows, and leaves the result unchanged
// because softmax is invariant to adding a constant to a whole line.
#include "softmax.hpp"

#include <cmath>
#include <limits>

namespace attn::detail {
namespace {

// Softmax of each row of `logits`; the queries axis is handled by transposing.
SoftmaxResult row_softmax(const Mat& logits, const BoolMat& blocked) {
  const Eigen::Index rows = logits.rows(), cols = logits.cols();
  const bool has_mask = blocked.size() != 0;
  SoftmaxResult r;
  r.weights = Mat::Zero(rows, cols);
  r.stats.max = Vec::Zero(rows);
  r.stats.exp = Mat::Zero(rows, cols);
  r.stats.sum = Vec::Zero(rows);
  for (Eigen::Index i = 0; i < rows; ++i) {
    double m = -std::numeric_limits<double>::infinity();
    for (Eigen::Index j = 0; j < cols; ++j)
      if (!(has_mask && blocked(i, j))) m = std::max(m, logits(i, j));
    if (m == -std::numeric_limits<double>::infinity()) {
      r.empty.push_back(static_cast<int>(i));  // nothing to attend to: weights stay 0
      continue;
    }
    r.stats.max(i) = m;
    double sum = 0;
    for (Eigen::Index j = 0; j < cols; ++j) {
      if (has_mask && blocked(i, j)) continue;
      const double e = std::exp(logits(i, j) - m);
      r.stats.exp(i, j) = e;
      sum += e;
    }
    r.stats.sum(i) = sum;  // >= 1: the maximum contributes exp(0)
    for (Eigen::Index j = 0; j < cols; ++j) r.weights(i, j) = r.stats.exp(i, j) / sum;
  }
  return r;
}

}  // namespace

SoftmaxResult masked_softmax(const Mat& logits, const BoolMat& blocked, SoftmaxAxis axis) {
  if (axis == SoftmaxAxis::Keys) return row_softmax(logits, blocked);
  const BoolMat bt = blocked.size() ? BoolMat(blocked.transpose()) : BoolMat();
  SoftmaxResult t = row_softmax(logits.transpose(), bt);
  t.weights.transposeInPlace();
  t.stats.exp.transposeInPlace();
  return t;
}

}  // namespace attn::detail
