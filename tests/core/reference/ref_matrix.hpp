// Plain nested-vector matrices for the independent reference implementation.
// The reference must not share code (or Eigen) with the core it checks, so its
// arithmetic is written as explicit loops over std::vector<std::vector<double>>.
#pragma once

#include <vector>

#include "attn/base/matrix.hpp"
#include "attn/compute/stage_values.hpp"

namespace ref {

using RMat = std::vector<std::vector<double>>;  // row-major: m[row][col]
using RMask = std::vector<std::vector<bool>>;   // true = blocked

RMat zeros(int rows, int cols);
RMat identity(int n);
int rows_of(const RMat& m);
int cols_of(const RMat& m);

RMat matmul(const RMat& a, const RMat& b);  // (r, k) x (k, c) -> (r, c)
RMat transpose(const RMat& m);
RMat add(const RMat& a, const RMat& b);
RMat scale(const RMat& m, double factor);
RMat hconcat(const RMat& left, const RMat& right);

// Boundary conversions only: copy element by element, no Eigen arithmetic.
RMat from_eigen(const attn::Mat& m);
inline RMat from_eigen(const attn::StageValues& m) { return from_eigen(m.dense()); }
attn::Mat to_eigen(const RMat& m);

}  // namespace ref
