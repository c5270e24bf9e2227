#pragma once
// Tensors from the mapping into Eigen matrices of the compute type, in the
// core's X * W convention (rows = inputs, columns = outputs), whatever way
// the family stores them.
#include <Eigen/Dense>
#include <vector>

#include "attn/hf/checkpoint.hpp"

namespace attn::hf::detail {

template <class S>
using MatX = Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic>;
template <class S>
using RowX = Eigen::Matrix<S, 1, Eigen::Dynamic>;

// Converts `count` elements starting at element `first` of `t` into `out`.
template <class S>
void convert_elements(const TensorRef& t, std::size_t first, std::size_t count, S* out);

// nn.Linear's [out, in]: row-major [out, in] is exactly column-major
// [in, out], so the bytes convert in order.
template <class S>
MatX<S> load_linear(const TensorRef& t, int in, int out);
// GPT-2's Conv1D [in, out], row-major: transposed into column-major.
template <class S>
MatX<S> load_conv1d(const TensorRef& t, int in, int out);
template <class S>
RowX<S> load_vector(const TensorRef& t);
// Rows `first`..`first + count` of a row-major [rows, width] table
// (embeddings) as a (count, width) matrix.
template <class S>
MatX<S> load_rows(const TensorRef& t, int width, const std::vector<int>& rows);

}  // namespace attn::hf::detail
