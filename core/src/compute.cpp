// The attention pipeline, one stage per formula in the articles:
// inputs (+ positional encoding) -> per head: Q, K, V -> scores -> scaled
// (-> ALiBi bias) -> masked -> weights -> head output -> concat -> W_O.
// Every intermediate is kept so it can be drawn and explained.
#include <cmath>
#include <limits>
#include <stdexcept>

#include "attn/trace.hpp"
#include "positional.hpp"
#include "softmax.hpp"
#include "stage_builder.hpp"

namespace attn {
namespace {

using detail::index_labels;
using detail::push_stage;
using detail::StageSpec;

constexpr double kMinusInf = -std::numeric_limits<double>::infinity();

struct Labels {
  std::vector<std::string> queries, keys;
};

// Adds the input stages for one sequence and returns the id of the stage that
// holds the (possibly position-encoded) sequence.
std::string push_sequence(Trace& t, const Mat& raw, const std::string& id, const std::string& title,
                          const std::vector<std::string>& rows, bool sinusoidal) {
  const int n = (int)raw.rows(), d = (int)raw.cols();
  if (!sinusoidal) {
    push_stage(t, {id, -1, title, title + " (input)", {}, ValueKind::Signed, rows, index_labels(d)}, raw);
    return id;
  }
  const std::string raw_id = id + "_raw", pe_id = id == "x" ? "pe" : "pe_" + id;
  push_stage(t, {raw_id, -1, title + " (embeddings)", title + " (input)", {}, ValueKind::Signed, rows,
                 index_labels(d)}, raw);
  Mat pe = detail::sinusoidal_encoding(n, d);
  push_stage(t, {pe_id, -1, "positional encoding", "PE(pos,2i)=sin(pos/10000^(2i/d)), PE(pos,2i+1)=cos(…)",
                 {}, ValueKind::Signed, rows, index_labels(d)}, pe);
  push_stage(t, {id, -1, title + " + PE", title + " = embeddings + PE", {{raw_id, -1}, {pe_id, -1}},
                 ValueKind::Signed, rows, index_labels(d)}, raw + pe);
  return id;
}

BoolMat build_blocked(const Scenario& s, const Dims& d) {
  const bool any = s.mask != MaskKind::None || !s.key_padding.empty();
  if (!any) return {};
  BoolMat b = BoolMat::Constant(d.n_q, d.n_k, false);
  for (int i = 0; i < d.n_q; ++i)
    for (int j = 0; j < d.n_k; ++j) {
      bool blocked = false;
      if (s.mask == MaskKind::Causal) blocked = j > i;
      if (s.mask == MaskKind::Custom) blocked = s.custom_mask(i, j);
      if (!s.key_padding.empty() && s.key_padding[(size_t)j]) blocked = true;
      b(i, j) = blocked;
    }
  return b;
}

Mat additive_scores(const Mat& q, const Mat& k, const Scenario& s, int head) {
  const int d_k = (int)q.cols();
  Mat w, u;
  Vec v;
  if (s.additive.empty()) {
    w = Mat::Identity(d_k, d_k);
    u = Mat::Identity(d_k, d_k);
    v = Vec::Ones(d_k);
  } else {
    const AdditiveParams& p = s.additive[(size_t)head];
    w = p.w, u = p.u, v = p.v;
  }
  const Mat qw = q * w;  // (n_q, d_att)
  const Mat ku = k * u;  // (n_k, d_att)
  Mat scores(q.rows(), k.rows());
  for (Eigen::Index i = 0; i < q.rows(); ++i)
    for (Eigen::Index j = 0; j < k.rows(); ++j) {
      const Vec inside = (qw.row(i) + ku.row(j)).transpose();  // (d_att)
      // tanh(∞) = 1 would hide an overflow: refuse it like the dot product does.
      if (!inside.allFinite())
        throw ComputeError("stage \"scores\" (head " + std::to_string(head) + "), cell [" + std::to_string(i) + "][" +
                               std::to_string(j) + "]: q·W + k·U overflowed inside tanh; the inputs are too large for double precision",
                           {"scores", head}, static_cast<int>(i), static_cast<int>(j));
      scores(i, j) = (v.array() * inside.array().tanh()).sum();
    }
  return scores;
}

struct ScaleInfo {
  double divisor = 1;
  std::string formula;
};

ScaleInfo scale_info(const Scenario& s, int d_k) {
  switch (s.scale) {
    case ScaleMode::SqrtDk: return {std::sqrt((double)d_k), "scaled = scores / √d_k (√" + std::to_string(d_k) + ")"};
    case ScaleMode::None: return {1.0, "scaled = scores (no scaling)"};
    case ScaleMode::Temperature: return {s.temperature, "scaled = scores / τ"};
  }
  return {};
}

// One head: projections through to weights · V.
void push_head(Trace& t, const Scenario& s, const Dims& d, int h, const std::string& x_id,
               const std::string& kv_id, const Labels& lab, const BoolMat& blocked) {
  // Copies: pushing stages below may reallocate t.stages.
  const Mat x = t.find(x_id)->value;    // (n_q, d_model)
  const Mat ctx = t.find(kv_id)->value;  // (n_k, d_ctx)
  const auto dims_q = index_labels(d.d_k), dims_v = index_labels(d.d_v);
  Mat q, k, v;
  if (d.projected) {
    const HeadWeights& w = s.heads[(size_t)h];
    push_stage(t, {"w_q", h, "W_Q", "W_Q (learned)", {}, ValueKind::Signed, index_labels(d.d_model), dims_q}, w.w_q);
    push_stage(t, {"w_k", h, "W_K", "W_K (learned)", {}, ValueKind::Signed, index_labels(d.d_ctx), dims_q}, w.w_k);
    push_stage(t, {"w_v", h, "W_V", "W_V (learned)", {}, ValueKind::Signed, index_labels(d.d_ctx), dims_v}, w.w_v);
    q = x * w.w_q;    // (n_q, d_k)
    k = ctx * w.w_k;  // (n_k, d_k)
    v = ctx * w.w_v;  // (n_k, d_v)
    const std::string c = kv_id == "x" ? "X" : "C";
    push_stage(t, {"q", h, "Q", "Q = X · W_Q", {{x_id, -1}, {"w_q", h}}, ValueKind::Signed, lab.queries, dims_q}, q);
    push_stage(t, {"k", h, "K", "K = " + c + " · W_K", {{kv_id, -1}, {"w_k", h}}, ValueKind::Signed, lab.keys, dims_q}, k);
    push_stage(t, {"v", h, "V", "V = " + c + " · W_V", {{kv_id, -1}, {"w_v", h}}, ValueKind::Signed, lab.keys, dims_v}, v);
  } else {
    q = x, k = ctx, v = ctx;
    const std::string c = kv_id == "x" ? "X" : "C";
    push_stage(t, {"q", h, "Q", "Q = X (no projection)", {{x_id, -1}}, ValueKind::Signed, lab.queries, dims_q}, q);
    push_stage(t, {"k", h, "K", "K = " + c + " (no projection)", {{kv_id, -1}}, ValueKind::Signed, lab.keys, dims_q}, k);
    push_stage(t, {"v", h, "V", "V = " + c + " (no projection)", {{kv_id, -1}}, ValueKind::Signed, lab.keys, dims_v}, v);
  }

  const bool additive = s.score == ScoreFn::Additive;
  Mat scores = additive ? additive_scores(q, k, s, h) : Mat(q * k.transpose());  // (n_q, n_k)
  const ScaleInfo sc = scale_info(s, d.d_k);
  Mat logits = scores / sc.divisor;  // (n_q, n_k)
  push_stage(t, {"scores", h, additive ? "additive scores" : "QKᵀ",
                 additive ? "scores[i,j] = v · tanh(q_i W + k_j U)" : "scores = Q · Kᵀ",
                 {{"q", h}, {"k", h}}, ValueKind::Signed, lab.queries, lab.keys}, std::move(scores));
  push_stage(t, {"scaled", h, "scaled", sc.formula, {{"scores", h}}, ValueKind::Signed, lab.queries, lab.keys}, logits);
  std::string pre_mask = "scaled";
  if (s.positional == Positional::Alibi) {
    Mat bias = detail::alibi_bias(d.n_q, d.n_k, detail::alibi_slope(h, d.n_heads));
    logits += bias;
    push_stage(t, {"alibi", h, "ALiBi bias", "bias[i,j] = -m·|i - j|, m = 2^(-8(h+1)/heads)", {},
                   ValueKind::Signed, lab.queries, lab.keys}, std::move(bias));
    push_stage(t, {"biased", h, "scaled + bias", "biased = scaled + ALiBi bias", {{"scaled", h}, {"alibi", h}},
                   ValueKind::Signed, lab.queries, lab.keys}, logits);
    pre_mask = "biased";
  }

  const bool before = s.mask_mode == MaskMode::BeforeSoftmax;
  Mat masked = logits;  // (n_q, n_k)
  if (before && blocked.size())
    for (Eigen::Index j = 0; j < masked.cols(); ++j)
      for (Eigen::Index i = 0; i < masked.rows(); ++i)
        if (blocked(i, j)) masked(i, j) = kMinusInf;
  push_stage(t, {"masked", h, "masked",
                 before ? "masked = blocked ? −∞ : logits" : "masked = logits (mask applied after softmax)",
                 {{pre_mask, h}}, ValueKind::Signed, lab.queries, lab.keys},
             masked, blocked, true);

  const BoolMat none;
  detail::SoftmaxResult sm = detail::masked_softmax(masked, before ? blocked : none, s.softmax_axis);
  const std::string axis = s.softmax_axis == SoftmaxAxis::Keys ? "over keys (each row sums to 1)"
                                                                 : "over queries (each column sums to 1)";
  Mat weights = sm.weights;
  std::vector<int> empty = sm.empty;
  if (before) {
    push_stage(t, {"weights", h, "softmax weights", "weights = softmax(masked) " + axis, {{"masked", h}},
                   ValueKind::Probability, lab.queries, lab.keys}, weights, blocked);
  } else {
    push_stage(t, {"softmax", h, "softmax (unmasked)", "softmax(logits) " + axis, {{"masked", h}},
                   ValueKind::Probability, lab.queries, lab.keys}, weights, blocked);
    if (blocked.size()) {
      for (Eigen::Index j = 0; j < weights.cols(); ++j)
        for (Eigen::Index i = 0; i < weights.rows(); ++i)
          if (blocked(i, j)) weights(i, j) = 0;
      // Lines whose every entry was zeroed, reported as in the correct mode.
      const bool rows = s.softmax_axis == SoftmaxAxis::Keys;
      const BoolMat lines = rows ? BoolMat(blocked.transpose()) : blocked;  // one column per line
      for (Eigen::Index l = 0; l < lines.cols(); ++l)
        if (lines.col(l).all()) empty.push_back(static_cast<int>(l));
    }
    push_stage(t, {"weights", h, "weights (zeroed after softmax)",
                   "weights = softmax · keep — not renormalised, so rows no longer sum to 1", {{"softmax", h}},
                   ValueKind::Probability, lab.queries, lab.keys}, weights, blocked);
  }
  t.stages.back().fully_masked = empty;
  for (int line : empty)
    t.notes.push_back("head " + std::to_string(h) + ": " +
                      (s.softmax_axis == SoftmaxAxis::Keys ? "query row " : "key column ") + std::to_string(line) +
                      " has every entry masked; its weights are defined as 0");
  t.softmax.push_back(std::move(sm.stats));

  Mat head_output = weights * v;  // (n_q, d_v)
  push_stage(t, {"head_output", h, "weights · V", "head_output = weights · V", {{"weights", h}, {"v", h}},
                 ValueKind::Signed, lab.queries, dims_v}, std::move(head_output));
}

}  // namespace

Trace compute_trace(const Scenario& s, const Limits& limits) {
  if (std::string e = validate(s, limits); !e.empty()) throw std::invalid_argument(e);
  Trace t;
  t.dims = dims_of(s);
  t.softmax_axis = s.softmax_axis;
  t.mask_mode = s.mask_mode;
  const Dims& d = t.dims;
  Labels lab{detail::token_labels(s.tokens, d.n_q, "t"),
             s.context ? detail::token_labels(s.context_tokens, d.n_k, "c") : std::vector<std::string>{}};
  const bool sin = s.positional == Positional::Sinusoidal;
  const std::string x_id = push_sequence(t, s.x, "x", "X", lab.queries, sin);
  std::string kv_id = x_id;
  if (s.context) kv_id = push_sequence(t, *s.context, "context", "C", lab.keys, sin);
  else lab.keys = lab.queries;

  const BoolMat blocked = build_blocked(s, d);
  for (int h = 0; h < d.n_heads; ++h) push_head(t, s, d, h, x_id, kv_id, lab, blocked);

  Mat concat(d.n_q, (Eigen::Index)d.n_heads * d.d_v);  // (n_q, heads * d_v)
  std::vector<StageRef> heads_in;
  for (int h = 0; h < d.n_heads; ++h) {
    concat.middleCols((Eigen::Index)h * d.d_v, d.d_v) = t.find("head_output", h)->value;
    heads_in.push_back({"head_output", h});
  }
  push_stage(t, {"concat", -1, "concat", "concat = [head_0 | head_1 | …]", heads_in, ValueKind::Signed,
                 lab.queries, index_labels((int)concat.cols())}, concat);
  if (s.w_o) {
    push_stage(t, {"w_o", -1, "W_O", "W_O (learned)", {}, ValueKind::Signed, index_labels((int)s.w_o->rows()),
                   index_labels(d.d_out)}, *s.w_o);
    Mat out = t.find("concat")->value * *s.w_o;  // (n_q, d_out)
    push_stage(t, {"output", -1, "output", "output = concat · W_O", {{"concat", -1}, {"w_o", -1}},
                   ValueKind::Signed, lab.queries, index_labels(d.d_out)}, out);
  } else {
    push_stage(t, {"output", -1, "output", "output = concat (no W_O)", {{"concat", -1}}, ValueKind::Signed,
                   lab.queries, index_labels(d.d_out)}, concat);
  }
  return t;
}

}  // namespace attn
