// Stable softmax: subtracting the line maximum before exp keeps every
// exponent <= 0, so exp never overflows, and leaves the result unchanged
// because softmax is invariant to adding a constant to a whole line.
#include "softmax.hpp"

#include <cmath>
#include <limits>

namespace attn::detail {
namespace {

// Softmax of each column of `lines` (Eigen is column-major, so columns are
// contiguous); the keys axis is handled by transposing in and out.
SoftmaxResult column_softmax(const Mat& lines, const BoolMat& blocked) {
  const Eigen::Index n = lines.rows(), count = lines.cols();
  const bool has_mask = blocked.size() != 0;
  SoftmaxResult r;
  r.weights = Mat::Zero(n, count);
  r.stats.max = Vec::Zero(count);
  r.stats.exp = Mat::Zero(n, count);
  r.stats.sum = Vec::Zero(count);
  for (Eigen::Index line = 0; line < count; ++line) {
    const double* l = &lines(0, line);
    const bool* b = has_mask ? &blocked(0, line) : nullptr;
    double m = -std::numeric_limits<double>::infinity();
    for (Eigen::Index k = 0; k < n; ++k)
      if (!(b && b[k])) m = std::max(m, l[k]);
    if (m == -std::numeric_limits<double>::infinity()) {
      r.empty.push_back(static_cast<int>(line));  // nothing to attend to: weights stay 0
      continue;
    }
    r.stats.max(line) = m;
    double* e = &r.stats.exp(0, line);
    double sum = 0;
    for (Eigen::Index k = 0; k < n; ++k) {
      if (b && b[k]) continue;
      e[k] = std::exp(l[k] - m);
      sum += e[k];
    }
    r.stats.sum(line) = sum;  // >= 1: the maximum contributes exp(0)
    double* w = &r.weights(0, line);
    for (Eigen::Index k = 0; k < n; ++k) w[k] = e[k] / sum;
  }
  return r;
}

}  // namespace

SoftmaxResult masked_softmax(const Mat& logits, const BoolMat& blocked, SoftmaxAxis axis) {
  if (axis == SoftmaxAxis::Queries) return column_softmax(logits, blocked);
  const BoolMat bt = blocked.size() ? BoolMat(blocked.transpose()) : BoolMat();
  SoftmaxResult t = column_softmax(logits.transpose(), bt);
  t.weights.transposeInPlace();
  t.stats.exp.transposeInPlace();
  return t;
}

}  // namespace attn::detail
