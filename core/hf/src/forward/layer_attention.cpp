#include "forward/layer_attention.hpp"

#include <cmath>
#include <algorithm>
#include <utility>

#include "attn/parallel.hpp"

namespace attn::hf::detail {

namespace {

// The keys query i may see: [first, last] (causal: up to itself; a sliding
// window: its last `window` keys).
std::pair<int, int> visible(int i, int n, const AttentionShape& s) {
  const int last = s.causal ? i : n - 1;
  const int first = s.window > 0 ? std::max(0, i - s.window + 1) : 0;
  return {first, last};
}

// Row-wise softmax over the keys a query may see, on contiguous rows so the
// exponentials vectorise; blocked keys get exactly 0.
template <class S>
void masked_softmax(AttentionMap<S>& scores, const AttentionShape& shape) {
  const int n = static_cast<int>(scores.rows());
  for (int i = 0; i < n; ++i) {
    const auto [first, last] = visible(i, n, shape);
    auto seen = scores.row(i).segment(first, last - first + 1).array();
    seen = (seen - seen.maxCoeff()).exp();
    seen /= seen.sum();
    scores.row(i).head(first).setZero();
    scores.row(i).tail(n - 1 - last).setZero();
  }
}

}  // namespace

template <class S>
MatX<S> multi_head_attention(const MatX<S>& q, const MatX<S>& k, const MatX<S>& v, const AttentionShape& shape,
                             const std::vector<bool>& off, AblationMode mode, bool keep,
                             std::vector<AttentionMap<S>>& weights,
                             int threads) {
  const int n = static_cast<int>(q.rows()), hd = shape.head_dim;
  const int group = shape.heads / shape.kv_heads;
  const S scale = static_cast<S>(1.0 / std::sqrt(static_cast<double>(hd)));
  MatX<S> concat(n, shape.heads * hd);
  if (keep) weights.assign(static_cast<std::size_t>(shape.heads), MatX<S>());
  const double work = 2.0 * n * n * hd;
  parallel_for(shape.heads, threads, work, [&](int h) {
    const int kv = h / group;
    AttentionMap<S> p(n, n);
    p.noalias() = (q.middleCols(h * hd, hd) * scale) * k.middleCols(kv * hd, hd).transpose();
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
                                                 std::vector<AttentionMap<float>>&, int);
template MatX<double> multi_head_attention<double>(const MatX<double>&, const MatX<double>&, const MatX<double>&,
                                                   const AttentionShape&, const std::vector<bool>&, AblationMode, bool,
                                                   std::vector<AttentionMap<double>>&, int);

}  // namespace attn::hf::detail
