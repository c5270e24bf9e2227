// One layer's attention over the whole sequence (layer_attention.hpp): per
// head scores, mask, window and softmax, the weights kept for the layers the
// caller keeps, heads switched off as asked.
#include "forward/layer_attention.hpp"

#include <cmath>
#include <algorithm>
#include <utility>

#include "attn/compute/masks.hpp"
#include "attn/execution/parallel.hpp"

namespace attn::hf::detail {

namespace {

// The keys query i may see: [first, last], by the core's one causal /
// sliding-window rule (attn/compute/masks.hpp), so the trace and the forward agree.
std::pair<int, int> visible(int i, int n, const AttentionShape& s) {
  const KeySpan span = visible_keys(i, n, s.causal, s.window);
  return {span.first, span.last};
}

// Rows per work item: every head is cut into blocks of this many queries,
// so the items (heads x blocks) spread over every core whatever the number
// of heads (12 heads on 16 cores left 4 idle when a head was an item), and
// each block multiplies only the keys its queries may see.
constexpr int kQueryBlock = 128;

// Rows [r0, r0 + rows) of q (positions first_query + r0 ..) and of one
// head's weights, into `p` (rows x n, those
// rows of the head's map or a scratch block), and their outputs
// weights x V into `out` (rows x hd). Only the keys [c0, c1) that some
// query of the block may see are multiplied: under a causal mask the
// blocks above the diagonal (nearly half the work at 1024 tokens) are
// never computed, only written as the zeros they are.
template <class S>
void attention_rows(const MatX<S>& q, const MatX<S>& k, const MatX<S>& v, int qcol, int kvcol, int hd, S scale, int r0,
                    int rows, const AttentionShape& shape, Eigen::Ref<AttentionMap<S>> p,
                    Eigen::Ref<MatX<S>> out) {
  const int n = static_cast<int>(k.rows()), at = shape.first_query + r0;
  const int c0 = visible(at, n, shape).first, c1 = visible(at + rows - 1, n, shape).second + 1;
  auto seen_block = p.middleCols(c0, c1 - c0);
  seen_block.noalias() = (q.block(r0, qcol, rows, hd) * scale) * k.block(c0, kvcol, c1 - c0, hd).transpose();
  // Row-wise softmax over the keys each query may see, on contiguous rows so
  // the exponentials vectorise; blocked keys get exactly 0.
  for (int i = 0; i < rows; ++i) {
    const auto [first, last] = visible(at + i, n, shape);
    auto seen = p.row(i).segment(first, last - first + 1).array();
    if (shape.softcap > 0) {
      const S cap = static_cast<S>(shape.softcap);
      seen = cap * (seen / cap).tanh();
    }
    seen = (seen - seen.maxCoeff()).exp();
    seen /= seen.sum();
    p.row(i).head(first).setZero();
    p.row(i).tail(n - 1 - last).setZero();
  }
  out.noalias() = p.middleCols(c0, c1 - c0) * v.block(c0, kvcol, c1 - c0, hd);
}

}  // namespace

template <class S>
MatX<S> multi_head_attention(const MatX<S>& q, const MatX<S>& k, const MatX<S>& v, const AttentionShape& shape,
                             const std::vector<bool>& off, AblationMode mode, bool keep,
                             std::vector<AttentionMap<S>>& weights,
                             int threads) {
  const int m = static_cast<int>(q.rows()), n = static_cast<int>(k.rows()), hd = shape.head_dim;
  const int group = shape.heads / shape.kv_heads;
  const double divisor = shape.divisor > 0 ? shape.divisor : std::sqrt(static_cast<double>(hd));
  const S scale = static_cast<S>(1.0 / divisor);
  MatX<S> concat(m, shape.heads * hd);
  if (keep) {
    weights.assign(static_cast<std::size_t>(shape.heads), AttentionMap<S>());
    for (AttentionMap<S>& w : weights) w.resize(m, n);  // every entry is written below
  }
  const int blocks = (m + kQueryBlock - 1) / kQueryBlock;
  const double work = 2.0 * kQueryBlock * n * hd;
  parallel_for(shape.heads * blocks, threads, work, [&](int item) {
    const int h = item / blocks, r0 = (item % blocks) * kQueryBlock, rows = std::min(kQueryBlock, m - r0);
    const int kv = h / group;
    auto out = concat.block(r0, h * hd, rows, hd);
    if (keep) {
      attention_rows<S>(q, k, v, h * hd, kv * hd, hd, scale, r0, rows, shape,
                        weights[static_cast<std::size_t>(h)].middleRows(r0, rows), out);
    } else {
      AttentionMap<S> p(rows, n);
      attention_rows<S>(q, k, v, h * hd, kv * hd, hd, scale, r0, rows, shape, p, out);
    }
  });
  // Switching off needs a head's whole output (its mean over the text).
  for (int h = 0; h < shape.heads; ++h) {
    if (!off[static_cast<std::size_t>(h)]) continue;
    auto out = concat.middleCols(h * hd, hd);
    if (mode == AblationMode::Zero)
      out.setZero();
    else
      out.rowwise() = out.colwise().mean().eval();
  }
  return concat;
}

template MatX<float> multi_head_attention<float>(const MatX<float>&, const MatX<float>&, const MatX<float>&,
                                                 const AttentionShape&, const std::vector<bool>&, AblationMode, bool,
                                                 std::vector<AttentionMap<float>>&, int);
template MatX<double> multi_head_attention<double>(const MatX<double>&, const MatX<double>&, const MatX<double>&,
                                                   const AttentionShape&, const std::vector<bool>&, AblationMode, bool,
                                                   std::vector<AttentionMap<double>>&, int);

}  // namespace attn::hf::detail
