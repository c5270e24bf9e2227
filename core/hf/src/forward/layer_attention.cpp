#include "forward/layer_attention.hpp"

#include <cmath>
#include <limits>

#include "attn/parallel.hpp"

namespace attn::hf::detail {

namespace {

bool blocked(int i, int j, const AttentionShape& s) {
  if (s.causal && j > i) return true;
  return s.window > 0 && j <= i - s.window;
}

// Row-wise softmax over the keys a query may see; blocked keys get exactly 0.
template <class S>
void masked_softmax(MatX<S>& scores, const AttentionShape& shape) {
  const int n = static_cast<int>(scores.rows());
  for (int i = 0; i < n; ++i) {
    S top = -std::numeric_limits<S>::infinity();
    for (int j = 0; j < n; ++j)
      if (!blocked(i, j, shape)) top = std::max(top, scores(i, j));
    S sum = 0;
    for (int j = 0; j < n; ++j) {
      const S e = blocked(i, j, shape) ? S(0) : std::exp(scores(i, j) - top);
      scores(i, j) = e;
      sum += e;
    }
    scores.row(i) /= sum;
  }
}

}  // namespace

template <class S>
MatX<S> multi_head_attention(const MatX<S>& q, const MatX<S>& k, const MatX<S>& v, const AttentionShape& shape,
                             const std::vector<bool>& off, AblationMode mode, bool keep, std::vector<MatX<S>>& weights,
                             int threads) {
  const int n = static_cast<int>(q.rows()), hd = shape.head_dim;
  const int group = shape.heads / shape.kv_heads;
  const S scale = static_cast<S>(1.0 / std::sqrt(static_cast<double>(hd)));
  MatX<S> concat(n, shape.heads * hd);
  if (keep) weights.assign(static_cast<std::size_t>(shape.heads), MatX<S>());
  const double work = 2.0 * n * n * hd;
  parallel_for(shape.heads, threads, work, [&](int h) {
    const int kv = h / group;
    MatX<S> p = (q.middleCols(h * hd, hd) * k.middleCols(kv * hd, hd).transpose()) * scale;
    masked_softmax(p, shape);
    MatX<S> out = p * v.middleCols(kv * hd, hd);
    if (off[static_cast<std::size_t>(h)]) {
      if (mode == AblationMode::Zero)
        out.setZero();
      else
        out.rowwise() = out.colwise().mean();
    }
    concat.middleCols(h * hd, hd) = out;
    if (keep) weights[static_cast<std::size_t>(h)] = std::move(p);
  });
  return concat;
}

template MatX<float> multi_head_attention<float>(const MatX<float>&, const MatX<float>&, const MatX<float>&,
                                                 const AttentionShape&, const std::vector<bool>&, AblationMode, bool,
                                                 std::vector<MatX<float>>&, int);
template MatX<double> multi_head_attention<double>(const MatX<double>&, const MatX<double>&, const MatX<double>&,
                                                   const AttentionShape&, const std::vector<bool>&, AblationMode, bool,
                                                   std::vector<MatX<double>>&, int);

}  // namespace attn::hf::detail
