// The arithmetic of one block that is not attention (block_math.hpp):
// LayerNorm, RMSNorm, the activations and x · W + b split across threads.
// Rotary positions are the core's (attn/compute/rope.hpp), one rule for both.
#include "forward/block_math.hpp"

#include <cmath>

#include "attn/execution/parallel.hpp"

namespace attn::hf::detail {

// The norms work down columns, which are contiguous in these column-major
// matrices: each row's sums are a vector that every column adds to. Row by
// row, each of a row's 768 entries sat 4 KB from the next (1024 tokens),
// and the norms were 8% of GPT-2's forward pass.
template <class S>
MatX<S> layer_norm(const MatX<S>& x, const RowX<S>& w, const RowX<S>& b, double eps) {
  using Col = Eigen::Array<S, Eigen::Dynamic, 1>;
  const S cols = static_cast<S>(x.cols());
  const Col mean = x.array().rowwise().sum() / cols;
  MatX<S> out = (x.array().colwise() - mean).matrix();
  const Col inv = ((out.array().square().rowwise().sum() / cols) + static_cast<S>(eps)).sqrt().inverse();
  for (Eigen::Index c = 0; c < out.cols(); ++c) out.col(c).array() = out.col(c).array() * inv * w(c) + b(c);
  return out;
}

template <class S>
MatX<S> rms_norm(const MatX<S>& x, const RowX<S>& w, double eps) {
  using Col = Eigen::Array<S, Eigen::Dynamic, 1>;
  const Col inv = ((x.array().square().rowwise().sum() / static_cast<S>(x.cols())) + static_cast<S>(eps)).sqrt().inverse();
  MatX<S> out(x.rows(), x.cols());
  for (Eigen::Index c = 0; c < x.cols(); ++c) out.col(c).array() = x.col(c).array() * inv * w(c);
  return out;
}

template <class S>
void activate(MatX<S>& x, Activation a) {
  // Whole-array expressions: Eigen vectorises tanh and exp for float, where
  // an element loop would call the scalar functions 40 million times for
  // GPT-2 at 1024 tokens.
  auto v = x.array();
  switch (a) {
    case Activation::GeluTanh:  // GPT-2's gelu_new
    case Activation::GeluTanhGated: {  // Gemma 2's gate
      const S k = static_cast<S>(std::sqrt(2.0 / std::acos(-1.0)));
      v = S(0.5) * v * (S(1) + (k * (v + S(0.044715) * v.cube())).tanh());
      return;
    }
    case Activation::GeluErf: {
      S* p = x.data();
      for (Eigen::Index i = 0; i < x.size(); ++i) p[i] = S(0.5) * p[i] * (S(1) + std::erf(p[i] / std::sqrt(S(2))));
      return;
    }
    case Activation::Relu:
      v = v.max(S(0));
      return;
    case Activation::SiluGated:
      v = v / (S(1) + (-v).exp());
      return;
  }
}

template <class S>
MatX<S> affine(const MatX<S>& x, const Weight<S>& w, const RowX<S>& bias, int threads) {
  // Tasks of 256 rows x 128 columns: set by the shape alone, so the sums
  // never depend on the thread count. Columns alone left GPT-2's 768-wide
  // products (the attention's output, the MLP's second half: 42% of a
  // layer's work) six tasks, six busy cores of sixteen; the rows give them
  // 24 at 1024 tokens. Stacked passes (patching's batches, 1536 rows and
  // more) take 512 rows a task: each block of weights is then packed for
  // twice the rows (144 patched runs of GPT-2 small: 10.6 s to 9.3–9.7 s).
  constexpr int kCols = 128;
  const int kRows = x.rows() >= 1536 ? 512 : 256;
  MatX<S> y(x.rows(), w.out);
  const int row_blocks = static_cast<int>((x.rows() + kRows - 1) / kRows);
  const int col_blocks = static_cast<int>((w.out + kCols - 1) / kCols);
  const double work = static_cast<double>(std::min<Eigen::Index>(kRows, x.rows())) * static_cast<double>(x.cols()) * kCols;
  // A column block's row blocks run one after another, reading the same
  // columns of the weights.
  parallel_for(row_blocks * col_blocks, threads, work, [&](int t) {
    const Eigen::Index c0 = static_cast<Eigen::Index>(t / row_blocks) * kCols, r0 = static_cast<Eigen::Index>(t % row_blocks) * kRows;
    const Eigen::Index cols = std::min<Eigen::Index>(kCols, w.out - c0), rows = std::min<Eigen::Index>(kRows, x.rows() - r0);
    auto out = y.block(r0, c0, rows, cols);
    if (w.transposed)
      out.noalias() = x.middleRows(r0, rows) * w.stored_t().middleRows(c0, cols).transpose();
    else
      out.noalias() = x.middleRows(r0, rows) * w.plain().middleCols(c0, cols);
    if (bias.size() > 0) out.rowwise() += bias.segment(c0, cols);
  });
  return y;
}

#define ATTN_HF_INSTANTIATE(S)                                                                      \
  template MatX<S> layer_norm<S>(const MatX<S>&, const RowX<S>&, const RowX<S>&, double);           \
  template MatX<S> rms_norm<S>(const MatX<S>&, const RowX<S>&, double);                             \
  template void activate<S>(MatX<S>&, Activation);                                                  \
  template MatX<S> affine<S>(const MatX<S>&, const Weight<S>&, const RowX<S>&, int);
ATTN_HF_INSTANTIATE(float)
ATTN_HF_INSTANTIATE(double)
#undef ATTN_HF_INSTANTIATE

}  // namespace attn::hf::detail
