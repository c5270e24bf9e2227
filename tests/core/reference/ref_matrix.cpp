// Loop implementations of the few matrix operations the reference needs.
// Deliberately naive (triple loops, left-to-right sums) so that agreement
// with the Eigen-based core is evidence, not a shared bug.
#include "ref_matrix.hpp"

#include <stdexcept>

namespace ref {

RMat zeros(int rows, int cols) {
  return RMat(static_cast<size_t>(rows), std::vector<double>(static_cast<size_t>(cols), 0.0));
}

RMat identity(int n) {
  RMat m = zeros(n, n);
  for (int i = 0; i < n; ++i) m[i][i] = 1.0;
  return m;
}

int rows_of(const RMat& m) { return static_cast<int>(m.size()); }

int cols_of(const RMat& m) { return m.empty() ? 0 : static_cast<int>(m[0].size()); }

RMat matmul(const RMat& a, const RMat& b) {
  const int r = rows_of(a), inner = cols_of(a), c = cols_of(b);
  if (inner != rows_of(b)) throw std::invalid_argument("ref::matmul: inner sizes differ");
  RMat out = zeros(r, c);
  // i-t-j order walks rows contiguously (fast enough for the 1024-token
  // scene in Debug builds); each out[i][j] still sums its terms in t order.
  for (int i = 0; i < r; ++i) {
    std::vector<double>& out_row = out[i];
    for (int t = 0; t < inner; ++t) {
      const double a_it = a[i][t];
      const std::vector<double>& b_row = b[t];
      for (int j = 0; j < c; ++j) out_row[j] += a_it * b_row[j];
    }
  }
  return out;
}

RMat transpose(const RMat& m) {
  RMat out = zeros(cols_of(m), rows_of(m));
  for (int i = 0; i < rows_of(m); ++i)
    for (int j = 0; j < cols_of(m); ++j) out[j][i] = m[i][j];
  return out;
}

RMat add(const RMat& a, const RMat& b) {
  if (rows_of(a) != rows_of(b) || cols_of(a) != cols_of(b))
    throw std::invalid_argument("ref::add: shapes differ");
  RMat out = a;
  for (int i = 0; i < rows_of(a); ++i)
    for (int j = 0; j < cols_of(a); ++j) out[i][j] += b[i][j];
  return out;
}

RMat scale(const RMat& m, double factor) {
  RMat out = m;
  for (auto& row : out)
    for (double& v : row) v *= factor;
  return out;
}

RMat hconcat(const RMat& left, const RMat& right) {
  if (left.empty()) return right;
  if (rows_of(left) != rows_of(right)) throw std::invalid_argument("ref::hconcat: rows differ");
  RMat out = left;
  for (int i = 0; i < rows_of(left); ++i)
    out[i].insert(out[i].end(), right[i].begin(), right[i].end());
  return out;
}

RMat from_eigen(const attn::Mat& m) {
  RMat out = zeros(static_cast<int>(m.rows()), static_cast<int>(m.cols()));
  for (int i = 0; i < m.rows(); ++i)
    for (int j = 0; j < m.cols(); ++j) out[i][j] = m(i, j);
  return out;
}

attn::Mat to_eigen(const RMat& m) {
  attn::Mat out(rows_of(m), cols_of(m));
  for (int i = 0; i < rows_of(m); ++i)
    for (int j = 0; j < cols_of(m); ++j) out(i, j) = m[i][j];
  return out;
}

}  // namespace ref
