// One head: projections through to weights · V. The scores are stored;
// scaled, biased, masked and (mask before softmax) the weights are
// derivations of the scores: the dense weights live only long enough to
// multiply V, and the trace keeps each line's max and sum instead. The
// logits' finiteness is proved once from a bound (max |scores| ÷ d + max |bias|)
// instead of a pass per stage; only when that bound overflows are the cells
// checked one by one, to name the one that overflowed.
#include "compute/head_stages.hpp"

#include <cmath>
#include <limits>

#include "attn/compute/score_scale.hpp"
#include "attn/text/format_number.hpp"
#include "attn/compute/rope.hpp"
#include "execution/fresh_matrix.hpp"
#include "execution/head_pool.hpp"
#include "compute/positions/positional.hpp"
#include "compute/softmax.hpp"
#include "compute/stage_builder.hpp"

namespace attn::detail {
namespace {

// Threads a head's own row-block loops ask for: none beyond the caller's.
// Inside run_heads the blocks are shared with the loop's threads that have
// no head left (help_board.hpp) whatever is asked here.
constexpr int kOwnThreads = 1;

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
  Mat scores = fresh_matrix(q.rows(), k.rows());  // every cell is written below
  for (Eigen::Index i = 0; i < q.rows(); ++i)
    for (Eigen::Index j = 0; j < k.rows(); ++j) {
      const Vec inside = (qw.row(i) + ku.row(j)).transpose();  // (d_att)
      // tanh(∞) = 1 would hide an overflow: refuse it like the dot product does.
      if (!inside.allFinite())
        throw ComputeError("stage \"scores\" (head " + std::to_string(head) + "), cell [" + std::to_string(i) + "][" +
                               std::to_string(j) + "]: q·W + k·U overflowed inside tanh; the inputs are too large for double precision",
                           {StageKind::scores, head}, static_cast<int>(i), static_cast<int>(j));
      scores(i, j) = (v.array() * inside.array().tanh()).sum();
    }
  return scores;
}

// "scores = Q · Kᵀ", naming the rotated Q and K it reads with RoPE and the
// head whose keys it shares under grouped-query attention.
std::string scores_formula(const StageRef& q, const StageRef& k, int h) {
  if (q.id == StageKind::q && k.head == h) return plain_formula(StageKind::scores);
  std::string f = "scores = " + std::string(info_of(q.id).symbol) + " · " + std::string(info_of(k.id).symbol) + "ᵀ";
  if (k.head != h) f += " (K of head " + std::to_string(k.head) + ")";
  return f;
}

struct ScaleInfo {
  double divisor = 1;
  std::string formula;
};

ScaleInfo plain_scale_info(const Scenario& s, int d_k) {
  switch (s.scale) {
    case ScaleMode::SqrtDk:
      return {score_divisor(s, d_k), plain_formula(StageKind::scaled) + " (√" + std::to_string(d_k) + ")"};
    case ScaleMode::None: return {score_divisor(s, d_k), "scaled = scores (no scaling)"};
    case ScaleMode::Temperature: return {score_divisor(s, d_k), "scaled = scores / τ"};
  }
  return {};
}

// The division, then the soft cap when the scenario has one ("scaled =
// c·tanh(scores / √d_k / c), c = 50").
ScaleInfo scale_info(const Scenario& s, int d_k) {
  ScaleInfo info = plain_scale_info(s, d_k);
  if (s.softcap <= 0) return info;
  const std::size_t eq = info.formula.find("= ");
  std::string divided = info.formula.substr(eq + 2);
  if (const std::size_t note = divided.find(" ("); note != std::string::npos) divided.resize(note);
  info.formula = "scaled = c·tanh(" + divided + " / c), c = " + format_number(s.softcap);
  return info;
}

// Q, K and V of one head. In self-attention of a long sequence the three
// are one product, X · [W_Q | W_K | W_V], whose columns are then split: X is
// packed for the kernel once instead of three times (at 2048 tokens and
// d_model 768, a head's projections packed 9 MB of X in row blocks), and
// the wider product runs the kernel longer per pack. An X that stays in
// cache between the three products (under 8 MB: 512 tokens of width 512
// are 2 MB) gains nothing, and there the joined weights and the split cost
// more than they save (512x512x8 traces: 28-33 -> 32-36 ms in alternating
// runs; 2048x768x12: 514-624 -> 415-547 ms). The choice depends on the
// shapes alone, so a full trace and an update make every head alike, bit
// for bit.
void projections(const Mat& x, const Mat& kv, const HeadWeights& w, Mat& q, Mat& k, Mat& v) {
  const bool long_x = static_cast<double>(x.rows()) * x.cols() * sizeof(double) >= double(8 << 20);
  if (&x != &kv || !long_x) {
    q = row_blocked_product(x, w.w_q, kOwnThreads);
    k = row_blocked_product(kv, w.w_k, kOwnThreads);
    v = row_blocked_product(kv, w.w_v, kOwnThreads);
    return;
  }
  const Eigen::Index dq = w.w_q.cols(), dk = w.w_k.cols(), dv = w.w_v.cols();
  Mat joined(w.w_q.rows(), dq + dk + dv);
  joined << w.w_q, w.w_k, w.w_v;
  const Mat all = row_blocked_product(x, joined, kOwnThreads);
  // Columns are contiguous (column-major): each split is one copy.
  q = fresh_matrix(x.rows(), dq);
  q = all.leftCols(dq);
  k = fresh_matrix(x.rows(), dk);
  k = all.middleCols(dq, dk);
  v = fresh_matrix(x.rows(), dv);
  v = all.rightCols(dv);
}

// Largest |value|: NaN or ∞ when any entry is not finite.
double max_abs(const Mat& m) { return m.size() ? m.cwiseAbs().maxCoeff<Eigen::PropagateNaN>() : 0.0; }

void compute(HeadStages& out, const Scenario& s, const Dims& d, int h, const HeadInputs& in, ScratchPool* scratch) {
  Trace t;  // this head's stages, appended to the real trace by the caller
  t.stages.reserve(kMostStagesPerHead);  // no regrowth: moving a stage moves its strings and lists
  const Labels& dims_q = in.d_k_dims;
  const Labels& dims_v = in.d_v_dims;
  using K = StageKind;
  const std::string c(info_of(in.kv_id).symbol);  // K and V read X, or the context C
  std::shared_ptr<const Mat> q, k, v;  // (n_q, d_k), (n_k, d_k), (n_k, d_v)
  // With grouped-query attention a head that shares its group's keys and
  // values has no W_K, W_V, K or V of its own: it reads the first head's.
  const bool own_kv = !d.shares_kv(h);
  const int leader = d.kv_leader(h);
  if (d.projected) {
    const HeadWeights& w = s.heads[(size_t)h];
    // validate() has proved the weights finite: no second pass over them.
    push_stage(t, {K::w_q, h, plain_title(K::w_q), plain_formula(K::w_q), {}, ValueKind::Signed, in.d_model_dims, dims_q}, copy_of(w.w_q), {}, false,
               true);
    Mat pq, pk, pv;
    if (own_kv) {
      push_stage(t, {K::w_k, h, plain_title(K::w_k), plain_formula(K::w_k), {}, ValueKind::Signed, in.d_ctx_dims, dims_q}, copy_of(w.w_k), {}, false,
                 true);
      push_stage(t, {K::w_v, h, plain_title(K::w_v), plain_formula(K::w_v), {}, ValueKind::Signed, in.d_ctx_dims, dims_v}, copy_of(w.w_v), {}, false,
                 true);
      projections(*in.x, *in.kv, w, pq, pk, pv);
    } else {
      pq = row_blocked_product(*in.x, w.w_q, kOwnThreads);
    }
    push_stage(t, {K::q, h, plain_title(K::q), plain_formula(K::q), {{in.x_id, -1}, {K::w_q, h}}, ValueKind::Signed, in.queries, dims_q},
               std::move(pq));
    q = t.stages.back().value.shared();
    if (own_kv) {
      push_stage(t, {K::k, h, plain_title(K::k), "K = " + c + " · W_K", {{in.kv_id, -1}, {K::w_k, h}}, ValueKind::Signed, in.keys, dims_q},
                 std::move(pk));
      k = t.stages.back().value.shared();
      push_stage(t, {K::v, h, plain_title(K::v), "V = " + c + " · W_V", {{in.kv_id, -1}, {K::w_v, h}}, ValueKind::Signed, in.keys, dims_v},
                 std::move(pv));
      v = t.stages.back().value.shared();
    }
  } else {
    // Q = K = V = the input: the same matrix, shared, not copied.
    q = in.x, k = in.kv, v = in.kv;
    push_stage(t, {K::q, h, plain_title(K::q), "Q = X (no projection)", {{in.x_id, -1}}, ValueKind::Signed, in.queries, dims_q},
               StageValues(q, Derivation{}), {}, false, true);
    push_stage(t, {K::k, h, plain_title(K::k), "K = " + c + " (no projection)", {{in.kv_id, -1}}, ValueKind::Signed, in.keys, dims_q},
               StageValues(k, Derivation{}), {}, false, true);
    push_stage(t, {K::v, h, plain_title(K::v), "V = " + c + " (no projection)", {{in.kv_id, -1}}, ValueKind::Signed, in.keys, dims_v},
               StageValues(v, Derivation{}), {}, false, true);
  }
  // Rotary positions turn each query and key by its position (attn/compute/rope.hpp).
  StageRef q_ref{K::q, h}, k_ref{K::k, leader};
  const StageRef v_ref{K::v, leader};
  if (s.rope.on) {
    const std::string rotated = std::to_string(rope_dims(s.rope, d.d_k)) + " of " + std::to_string(d.d_k) + " dims";
    const std::string formula = (s.rope.pairing == RopePairing::Half ? "half pairs" : "interleaved pairs") +
                                std::string(", θ_i = ") + format_number(s.rope.base, 8) + "^(−2i/" +
                                std::to_string(rope_dims(s.rope, d.d_k)) + ")";
    push_stage(t, {K::q_rope, h, plain_title(K::q_rope), plain_formula(K::q_rope) + ": " + rotated + ", " + formula,
                   {{K::q, h}}, ValueKind::Signed, in.queries, dims_q}, apply_rope(*q, s.rope));
    q = t.stages.back().value.shared();
    q_ref = {K::q_rope, h};
    if (own_kv) {
      push_stage(t, {K::k_rope, h, plain_title(K::k_rope), plain_formula(K::k_rope) + ": " + rotated + ", " + formula,
                     {{K::k, h}}, ValueKind::Signed, in.keys, dims_q}, apply_rope(*k, s.rope));
      k = t.stages.back().value.shared();
    }
    k_ref = {K::k_rope, leader};
  }
  if (!own_kv) {
    const size_t g = static_cast<size_t>(d.kv_index(h));
    if (g >= in.shared_k.size() || !in.shared_k[g] || !in.shared_v[g])
      throw std::logic_error("compute_head: head " + std::to_string(h) + " needs the keys of head " +
                             std::to_string(leader) + ", which were not computed");
    k = in.shared_k[g];
    v = in.shared_v[g];
  }
  out.k = k;
  out.v = v;

  // The logits' derivations are known before any score: ÷ d (scaled), + the
  // ALiBi bias (biased), −∞ where blocked (masked).
  const bool additive = s.score == ScoreFn::Additive;
  const bool before = s.mask_mode == MaskMode::BeforeSoftmax;
  const bool over_rows = s.softmax_axis == SoftmaxAxis::Keys;
  const ScaleInfo sc = scale_info(s, d.d_k);
  Derivation scaled;
  scaled.divisor = sc.divisor;
  scaled.cap = s.softcap;
  Derivation logits = scaled;
  if (s.positional == Positional::Alibi)
    logits.bias = std::make_shared<const Mat>(alibi_bias(d.n_q, d.n_k, alibi_slope(h, d.n_heads)));
  Derivation masked = logits;
  if (before && in.blocked.size()) {
    masked.mask = in.blocked;
    masked.blocked_value = kMinusInf;
  }

  SoftmaxResult sm;
  Mat scores_m, head_output;  // (n_q, n_k), (n_q, d_v)
  double largest = 0;  // max |score|: finite proves every score finite (a NaN or ∞ makes it non-finite)
  // The common case, in the fewest passes over n×n: the scores and weights ·
  // V together, a block of rows at a time, each block of scores used while
  // in cache. weights · V is computed as (exps · V) with each row then
  // divided by its sum, so neither the weights nor the exps are ever whole
  // (the weights are derived on read, exactly as the softmax made them);
  // head outputs agree with weights · V to rounding (~1e-16). Scores that
  // fit in cache whole (under 1 MB, 362 tokens) gain nothing from it and
  // pay a copy: they take the separate passes, which give the same bits.
  const bool in_cache = static_cast<double>(d.n_q) * d.n_k * sizeof(double) < double(1 << 20);
  const bool together = !additive && before && over_rows && !in_cache;
  if (together) {
    sm.stats = scores_softmax_times(*q, *k, masked, *v, scores_m, largest, head_output, sm.empty, scratch, kOwnThreads);
  } else {
    scores_m = additive ? additive_scores(*q, *k, s, h) : row_blocked_product(*q, k->transpose(), kOwnThreads);
    largest = max_abs(scores_m);
  }
  push_stage(t, {K::scores, h, additive ? "additive scores" : plain_title(K::scores),
                 additive ? "scores[i,j] = v · tanh(q_i W + k_j U)" : scores_formula(q_ref, k_ref, h),
                 {q_ref, k_ref}, ValueKind::Signed, in.queries, in.keys}, std::move(scores_m), {}, false,
             std::isfinite(largest));
  const std::shared_ptr<const Mat> scores = t.stages.back().value.shared();
  double bound = s.softcap > 0 && std::isfinite(largest) ? std::min(largest / sc.divisor, s.softcap) : largest / sc.divisor;
  push_stage(t, {K::scaled, h, plain_title(K::scaled), sc.formula, {{K::scores, h}}, ValueKind::Signed, in.queries, in.keys},
             StageValues(scores, scaled), {}, false, std::isfinite(bound));
  K pre_mask = K::scaled;
  if (logits.bias) {
    push_stage(t, {K::alibi, h, plain_title(K::alibi), plain_formula(K::alibi), {}, ValueKind::Signed,
                   in.queries, in.keys}, StageValues(logits.bias, Derivation{}), {}, false, true);
    bound += max_abs(*logits.bias);
    push_stage(t, {K::biased, h, plain_title(K::biased), plain_formula(K::biased), {{K::scaled, h}, {K::alibi, h}},
                   ValueKind::Signed, in.queries, in.keys}, StageValues(scores, logits), {}, false, std::isfinite(bound));
    pre_mask = K::biased;
  }
  push_stage(t, {K::masked, h, plain_title(K::masked),
                 before ? plain_formula(K::masked) : "masked = logits (mask applied after softmax)",
                 {{pre_mask, h}}, ValueKind::Signed, in.queries, in.keys},
             StageValues(scores, masked), in.blocked, true, std::isfinite(bound));

  const std::string axis = over_rows ? "over keys (each row sums to 1)" : "over queries (each column sums to 1)";
  if (!together) {
    if (before && over_rows) sm.stats = softmax_rows_times(*scores, masked, *v, head_output, sm.empty, scratch, kOwnThreads);
    else sm = masked_softmax(*scores, masked, s.softmax_axis);
  }
  std::vector<int> empty = sm.empty;
  if (before) {
    sm.weights = Mat();  // derived from now on: one n×n matrix less per head
    Derivation weights = masked;
    weights.softmax = std::make_shared<const SoftmaxStats>(sm.stats);
    weights.softmax_over_rows = over_rows;
    push_stage(t, {K::weights, h, plain_title(K::weights), plain_formula(K::weights) + " " + axis, {{K::masked, h}},
                   ValueKind::Probability, in.queries, in.keys}, StageValues(scores, weights), in.blocked, false, true);
  } else {
    push_stage(t, {K::softmax, h, plain_title(K::softmax), plain_formula(K::softmax) + " " + axis, {{K::masked, h}},
                   ValueKind::Probability, in.queries, in.keys}, std::move(sm.weights), in.blocked, false, true);
    Derivation zeroed;  // blocked weights become 0, the rest are kept as they are
    if (in.blocked.size()) {
      zeroed.mask = in.blocked;
      zeroed.blocked_value = 0;
      // Lines whose every entry was zeroed, reported as in the correct mode.
      const bool rows = s.softmax_axis == SoftmaxAxis::Keys;
      const BoolMat& b = in.blocked.mat();
      const Eigen::Index lines = rows ? b.rows() : b.cols();
      for (Eigen::Index l = 0; l < lines; ++l)
        if (rows ? b.row(l).all() : b.col(l).all()) empty.push_back(static_cast<int>(l));
    }
    push_stage(t, {K::weights, h, "weights (zeroed after softmax)",
                   "weights = softmax · keep — not renormalised, so rows no longer sum to 1", {{K::softmax, h}},
                   ValueKind::Probability, in.queries, in.keys},
               StageValues(t.stages.back().value.shared(), zeroed), in.blocked, false, true);
  }
  Stage& weights = t.stages.back();
  weights.fully_masked = empty;
  for (int line : empty)
    out.notes.push_back("head " + std::to_string(h) + ": " +
                        (s.softmax_axis == SoftmaxAxis::Keys ? "query row " : "key column ") + std::to_string(line) +
                        " has every entry masked; its weights are defined as 0");
  out.softmax = std::move(sm.stats);

  if (head_output.size() == 0) {  // all but the fast path above
    head_output = fresh_matrix(weights.value.rows(), v->cols());
    head_output.noalias() = weights.value.dense() * *v;
  }
  push_stage(t, {K::head_output, h, plain_title(K::head_output), plain_formula(K::head_output),
                 {{K::weights, h}, v_ref},
                 ValueKind::Signed, in.queries, dims_v}, std::move(head_output));
  out.stages = std::move(t.stages);
}

}  // namespace

void set_dim_labels(HeadInputs& in, const Dims& d) {
  in.d_model_dims = index_labels(d.d_model);
  in.d_ctx_dims = d.d_ctx == d.d_model ? in.d_model_dims : Labels(index_labels(d.d_ctx));
  in.d_k_dims = index_labels(d.d_k);
  in.d_v_dims = d.d_v == d.d_k ? in.d_k_dims : Labels(index_labels(d.d_v));
}

HeadStages compute_head(const Scenario& s, const Dims& d, int h, const HeadInputs& in, ScratchPool* scratch) {
  HeadStages out;
  try {
    compute(out, s, d, h, in, scratch);
  } catch (...) {
    out.error = std::current_exception();  // rethrown in head order by compute_trace
  }
  return out;
}

}  // namespace attn::detail
