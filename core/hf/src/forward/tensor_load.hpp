#pragma once
// Tensors from the mapping into Eigen matrices of the compute type, in the
// core's X * W convention (rows = inputs, columns = outputs), whatever way
// the family stores them.
#include <Eigen/Dense>
#include <memory>
#include <vector>

#include "attn/hf/checkpoint/checkpoint.hpp"

namespace attn::hf::detail {

template <class S>
using MatX = Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic>;
template <class S>
using RowX = Eigen::Matrix<S, 1, Eigen::Dynamic>;

// Converts `count` elements starting at element `first` of `t` into `out`.
template <class S>
void convert_elements(const TensorRef& t, std::size_t first, std::size_t count, S* out);

// A weight matrix W (in x out, the core's X * W) as the checkpoint stores
// it, served from the mapping when its type and alignment allow (F32 for
// float, F64 for double) and converted once otherwise, never transposed:
// nn.Linear's row-major [out, in] is column-major W itself; GPT-2's Conv1D
// row-major [in, out] is column-major W^T, which the products read
// transposed. `cols` slices columns (Q, K, V out of c_attn; a head's share)
// without copying.
template <class S>
struct Weight {
  std::shared_ptr<const std::vector<S>> owned;  // the converted copy, when the mapping cannot serve
  const S* data = nullptr;
  Eigen::Index in = 0, out = 0;  // this view's shape as W
  Eigen::Index col0 = 0;         // its first column in the stored matrix
  Eigen::Index ld = 0;           // the stored matrix's leading dimension
  bool transposed = false;       // stored as W^T (Conv1D)
  Weight cols(Eigen::Index first, Eigen::Index count) const {
    Weight w = *this;
    w.col0 = col0 + first;
    w.out = count;
    return w;
  }
  // Column-major maps of the view: W itself (not transposed) or W^T.
  using Strided = Eigen::Map<const MatX<S>, 0, Eigen::OuterStride<>>;
  Strided plain() const { return Strided(data + col0 * ld, in, out, Eigen::OuterStride<>(ld)); }
  Strided stored_t() const { return Strided(data + col0, out, in, Eigen::OuterStride<>(ld)); }
  MatX<S> matrix() const { return transposed ? MatX<S>(stored_t().transpose()) : MatX<S>(plain()); }
};

// nn.Linear (stored [out, in]) and GPT-2's Conv1D (stored [in, out]).
template <class S>
Weight<S> load_linear(const TensorRef& t, int in, int out);
template <class S>
Weight<S> load_conv1d(const TensorRef& t, int in, int out);
template <class S>
RowX<S> load_vector(const TensorRef& t);
// Rows `first`..`first + count` of a row-major [rows, width] table
// (embeddings) as a (count, width) matrix.
template <class S>
MatX<S> load_rows(const TensorRef& t, int width, const std::vector<int>& rows);

}  // namespace attn::hf::detail
