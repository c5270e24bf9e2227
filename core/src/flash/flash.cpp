// FlashAttention's loop over tiles (attn/flash/flash.hpp), written as plain loops
// in the order explain_flash retells them, so an explanation's numbers are
// the cell's own. The head's Q, K and V are the trace's: whatever RoPE or a
// shared key/value head made them, the tiles read the same matrices the
// plain scores did.
#include "attn/flash/flash.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "attn/text/format_number.hpp"
#include "flash/flash_limits.hpp"

namespace attn {
// Named, so that its helpers' names cannot meet another file's in a unity build.
namespace flash_loop {
namespace {

constexpr double kMinusInf = -std::numeric_limits<double>::infinity();

const Stage& stage_of(const Trace& trace, StageRef ref) {
  const Stage* s = trace.find(ref);
  if (!s)
    throw std::invalid_argument("the trace has no stage \"" + to_string(ref.id) + "\" of head " + std::to_string(ref.head) +
                                " (a preview of another head?)");
  return *s;
}

Labels slice(const Labels& all, int first, int count) {
  if (all.empty()) return {};
  return std::vector<std::string>(all.begin() + first, all.begin() + first + count);
}

// A tile's grid, titled after the table with its block.
Stage grid(StageKind kind, int head, const std::string& where, std::vector<StageRef> inputs, Mat m, Labels rows,
           Labels cols, ValueKind vk = ValueKind::Signed) {
  Stage s;
  s.id = kind;
  s.head = head;
  s.title = std::string(info_of(kind).title) + where;
  s.formula = std::string(info_of(kind).formula);
  s.inputs = std::move(inputs);
  s.value = std::move(m);
  s.kind = vk;
  s.row_labels = std::move(rows);
  s.col_labels = std::move(cols);
  return s;
}

// The head's matrices as the plain path used them.
struct HeadSource {
  Mat q, k, v;   // (n_q, d_k), (n_k, d_k), (n_k, d_v)
  double divisor = 1;
  double cap = 0;     // the scaled stage's soft cap (Scenario::softcap), 0 for none
  std::string scale;  // how the scaled stage divides: " / √d_k", " / τ", or "" (no scaling)
  Mat bias;      // (n_q, n_k) ALiBi, or empty
  SharedMask blocked;
  Labels queries, keys, dims_v;
};

HeadSource source_of(const Trace& trace, int h, FlashAttention& fa) {
  const Stage& scores = stage_of(trace, {StageKind::scores, h});
  const Stage& out = stage_of(trace, {StageKind::head_output, h});
  fa.q = scores.inputs.at(0), fa.k = scores.inputs.at(1), fa.v = out.inputs.at(1);
  HeadSource s;
  s.q = stage_of(trace, fa.q).value.dense();
  s.k = stage_of(trace, fa.k).value.dense();
  s.v = stage_of(trace, fa.v).value.dense();
  const Stage& scaled = stage_of(trace, {StageKind::scaled, h});
  s.divisor = scaled.value.derivation().divisor;
  s.cap = scaled.value.derivation().cap;
  // The tile's formula names the same divisor as the scaled stage's ("scaled
  // = scores / √d_k (√64)", "scaled = scores / τ", "scaled = scores (no
  // scaling)", "scaled = c·tanh(scores / √d_k / c), c = 50").
  std::string after = scaled.formula.substr(std::min(scaled.formula.size(), scaled.formula.find("scores") + 6));
  if (const size_t at = after.find(" / c)"); at != std::string::npos) after.resize(at);
  if (after.rfind(" / ", 0) == 0) s.scale = after;
  if (const Stage* alibi = trace.find(StageKind::alibi, h)) s.bias = alibi->value.dense();
  const Stage& masked = stage_of(trace, {StageKind::masked, h});
  s.blocked = masked.blocked;
  s.queries = masked.row_labels, s.keys = masked.col_labels, s.dims_v = out.col_labels;
  return s;
}

// Query block (row0, rows) against key block (col0, cols), given m, ℓ and O
// after the key block before (m = −∞, ℓ = 0, O = 0 at j = 0).
FlashTile run_tile(const HeadSource& src, FlashTile t, int h, const Vec& m_old, const Vec& l_old, const Mat& o_old) {
  using K = StageKind;
  const int r_n = t.rows, c_n = t.cols, d_v = static_cast<int>(src.v.cols());
  const std::string where = " (i = " + std::to_string(t.i) + ", j = " + std::to_string(t.j) + ")";
  const Labels rows = slice(src.queries, t.row0, r_n), cols = slice(src.keys, t.col0, c_n);
  const auto column = [&](K kind) { return Labels(std::vector<std::string>{std::string(info_of(kind).symbol)}); };

  Mat s(r_n, c_n);  // (B_r, B_c)
  BoolMat blocked;
  if (src.blocked.size()) blocked = src.blocked.mat().block(t.row0, t.col0, r_n, c_n);
  for (int r = 0; r < r_n; ++r)
    for (int c = 0; c < c_n; ++c) {
      if (blocked.size() && blocked(r, c)) {
        s(r, c) = kMinusInf;  // exp(−∞) = 0: a blocked key adds nothing to the sum or the output
        continue;
      }
      double dot = 0;
      for (Eigen::Index e = 0; e < src.q.cols(); ++e) dot += src.q(t.row0 + r, e) * src.k(t.col0 + c, e);
      double logit = soft_capped(dot / src.divisor, src.cap);
      if (src.bias.size()) logit += src.bias(t.row0 + r, t.col0 + c);
      s(r, c) = logit;
    }
  Vec m_new(r_n), alpha(r_n), l_new(r_n);  // (B_r)
  Mat p(r_n, c_n), o(r_n, d_v);            // (B_r, B_c), (B_r, d_v)
  for (int r = 0; r < r_n; ++r) {
    m_new(r) = std::max(m_old(r), s.row(r).maxCoeff());
    // Until a row has seen an open key its max is −∞: nothing to rescale, and
    // exp(−∞ − (−∞)) would be NaN, so P is 0 there.
    const bool nothing_yet = m_new(r) == kMinusInf;
    alpha(r) = nothing_yet ? 1.0 : std::exp(m_old(r) - m_new(r));
    double row_sum = 0;
    for (int c = 0; c < c_n; ++c) {
      p(r, c) = nothing_yet ? 0.0 : std::exp(s(r, c) - m_new(r));
      row_sum += p(r, c);
    }
    l_new(r) = alpha(r) * l_old(r) + row_sum;
    for (int col = 0; col < d_v; ++col) {
      double acc = 0;
      for (int c = 0; c < c_n; ++c) acc += p(r, c) * src.v(t.col0 + c, col);
      o(r, col) = alpha(r) * o_old(r, col) + acc;
    }
  }
  t.scores = grid(K::flash_scores, h, where, {}, std::move(s), rows, cols);
  const std::string product = "Q_i · K_jᵀ" + src.scale;
  t.scores.formula = "S_ij = " + (src.cap > 0 ? "c·tanh(" + product + " / c)" : product) +
                     (src.bias.size() ? " + ALiBi bias" : "") + ", −∞ where blocked" +
                     (src.cap > 0 ? ", c = " + format_number(src.cap) : "");
  t.scores.blocked = blocked;
  t.max_old = grid(K::flash_max_old, h, where, {}, m_old, rows, column(K::flash_max_old));
  t.max_new = grid(K::flash_max, h, where, {{K::flash_max_old, h}, {K::flash_scores, h}}, m_new, rows,
                   column(K::flash_max));
  t.rescale = grid(K::flash_rescale, h, where, {{K::flash_max_old, h}, {K::flash_max, h}}, alpha, rows,
                   column(K::flash_rescale), ValueKind::Probability);
  t.p = grid(K::flash_p, h, where, {{K::flash_scores, h}, {K::flash_max, h}}, std::move(p), rows, cols,
             ValueKind::Probability);
  t.p.blocked = blocked;
  t.sum = grid(K::flash_sum, h, where, {{K::flash_rescale, h}, {K::flash_p, h}}, l_new, rows, column(K::flash_sum));
  t.o = grid(K::flash_o, h, where, {{K::flash_rescale, h}, {K::flash_p, h}}, std::move(o), rows, src.dims_v);
  return t;
}

}  // namespace

FlashAttention compute(const Trace& trace, const FlashOptions& opts);

}  // namespace flash_loop

const FlashTile& FlashAttention::tile(int i, int j) const {
  if (i < 0 || i >= query_blocks() || j < 0 || j >= key_blocks())
    throw std::out_of_range("tile (" + std::to_string(i) + ", " + std::to_string(j) + ") does not exist (" +
                            std::to_string(query_blocks()) + " query blocks × " + std::to_string(key_blocks()) +
                            " key blocks)");
  return blocks[static_cast<size_t>(i)].tiles[static_cast<size_t>(j)];
}

FlashAttention compute_flash(const Trace& trace, const FlashOptions& opts) { return flash_loop::compute(trace, opts); }

FlashAttention flash_loop::compute(const Trace& trace, const FlashOptions& opts) {
  check_flash_options(trace, opts);
  using K = StageKind;
  const int h = opts.head;
  FlashAttention fa;
  fa.head = h, fa.block_rows = opts.block_rows, fa.block_cols = opts.block_cols;
  const HeadSource src = source_of(trace, h, fa);
  fa.n_q = static_cast<int>(src.q.rows()), fa.n_k = static_cast<int>(src.k.rows()), fa.d_v = static_cast<int>(src.v.cols());
  Mat all(fa.n_q, fa.d_v);  // (n_q, d_v)
  for (int i = 0, row0 = 0; row0 < fa.n_q; ++i, row0 += opts.block_rows) {
    FlashBlock b;
    b.i = i, b.row0 = row0, b.rows = std::min(opts.block_rows, fa.n_q - row0);
    // The running values live on chip for the whole inner loop; each tile keeps a copy to show.
    Vec m = Vec::Constant(b.rows, kMinusInf), l = Vec::Zero(b.rows);  // (B_r)
    Mat o = Mat::Zero(b.rows, fa.d_v);                                 // (B_r, d_v)
    for (int j = 0, col0 = 0; col0 < fa.n_k; ++j, col0 += opts.block_cols) {
      FlashTile t;
      t.i = i, t.j = j, t.row0 = row0, t.rows = b.rows, t.col0 = col0, t.cols = std::min(opts.block_cols, fa.n_k - col0);
      t = run_tile(src, std::move(t), h, m, l, o);
      t.scores.inputs = {fa.q, fa.k};
      t.o.inputs.push_back(fa.v);
      m = t.max_new.value.dense(), l = t.sum.value.dense(), o = t.o.value.dense();
      b.tiles.push_back(std::move(t));
    }
    Mat out(b.rows, fa.d_v);  // (B_r, d_v)
    for (int r = 0; r < b.rows; ++r)
      for (int c = 0; c < fa.d_v; ++c) out(r, c) = l(r) == 0 ? 0.0 : o(r, c) / l(r);  // ℓ = 0: every key blocked
    all.middleRows(row0, b.rows) = out;
    b.output = grid(K::flash_block_output, h, " (i = " + std::to_string(i) + ")", {{K::flash_o, h}, {K::flash_sum, h}},
                    std::move(out), slice(src.queries, row0, b.rows), src.dims_v);
    fa.blocks.push_back(std::move(b));
  }
  const Mat plain = stage_of(trace, {K::head_output, h}).value.dense();
  for (int r = 0; r < fa.n_q; ++r)
    for (int c = 0; c < fa.d_v; ++c) {
      const double d = std::abs(all(r, c) - plain(r, c));
      if (!(d <= fa.max_abs_diff)) fa.max_abs_diff = d, fa.worst_row = r, fa.worst_col = c;  // a NaN counts as worst
    }
  fa.output = grid(K::flash_output, h, "", {{K::flash_block_output, h}}, std::move(all), src.queries, src.dims_v);
  return fa;
}

}  // namespace attn
