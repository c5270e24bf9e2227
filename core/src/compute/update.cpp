// Incremental recompute (see trace.hpp): compares the two scenarios and
// redoes only what the edit can have changed, with the same code as a full
// recompute:
//   - a token rename changes labels only;
//   - new W_Q/W_K/W_V for some heads recompute those heads, then the output;
//   - a new W_O recomputes the output;
//   - cells of a custom mask (keys-axis softmax) recompute those query rows
//     of each head's weights, head outputs and the output.
// Anything else (X, the context, options, shapes) is a full recompute.
// Everything is bit-identical to compute_trace except
//   - the rows a mask edit touches after the weights: weights · V for one
//     row is a matrix-vector product, which Eigen sums in a different order
//     than the full matrix product;
//   - the output after an edit of some heads' weights, updated by the
//     change in those heads' columns (replace_output);
// which agree to rounding (about 1e-15 relative).
#include <algorithm>
#include <optional>
#include <stdexcept>

#include "attn/compute/trace.hpp"
#include "execution/head_pool.hpp"
#include "compute/softmax.hpp"
#include "compute/stage_builder.hpp"
#include "compute/trace_parts.hpp"

namespace attn {
namespace {

bool same(const Mat& a, const Mat& b) { return a.rows() == b.rows() && a.cols() == b.cols() && a == b; }

// What an edit changed, when it is a kind that can be updated in place.
struct Change {
  bool labels = false;
  std::vector<int> heads;      // heads whose W_Q, W_K or W_V changed
  bool w_o = false;
  std::vector<int> mask_rows;  // query rows of the custom mask that changed
};

std::optional<Change> classify(const Scenario& a, const Scenario& b) {
  if (dims_of(a) != dims_of(b) || !same(a.x, b.x) || a.context.has_value() != b.context.has_value() ||
      (a.context && !same(*a.context, *b.context)))
    return std::nullopt;
  if (a.scale != b.scale || a.temperature != b.temperature || a.softcap != b.softcap || a.mask != b.mask ||
      a.key_padding != b.key_padding ||
      a.mask_mode != b.mask_mode || a.score != b.score || a.positional != b.positional ||
      a.softmax_axis != b.softmax_axis || !a.additive.empty() || !b.additive.empty() || a.rope != b.rope ||
      a.n_kv_heads != b.n_kv_heads || a.window != b.window || a.sinks != b.sinks || a.stride != b.stride ||
      a.heads.size() != b.heads.size() || a.w_o.has_value() != b.w_o.has_value())
    return std::nullopt;
  Change c;
  c.labels = a.tokens != b.tokens || a.context_tokens != b.context_tokens;
  // New keys or values of a group's first head change every head of the group.
  const Dims d = dims_of(b);
  for (size_t h = 0; h < a.heads.size(); ++h) {
    const HeadWeights &p = a.heads[h], &q = b.heads[h];
    const HeadWeights &pk = a.heads[(size_t)d.kv_leader((int)h)], &qk = b.heads[(size_t)d.kv_leader((int)h)];
    if (!same(p.w_q, q.w_q) || !same(pk.w_k, qk.w_k) || !same(pk.w_v, qk.w_v)) c.heads.push_back(static_cast<int>(h));
  }
  // A new b_O is a new W_O to the update: the output is recomputed whole.
  c.w_o = a.w_o && (!same(*a.w_o, *b.w_o) || a.output_bias.size() != b.output_bias.size() ||
                    a.output_bias != b.output_bias);
  if (a.mask == MaskKind::Custom) {
    if (a.custom_mask.rows() != b.custom_mask.rows() || a.custom_mask.cols() != b.custom_mask.cols())
      return std::nullopt;
    for (Eigen::Index i = 0; i < a.custom_mask.rows(); ++i)
      if (a.custom_mask.row(i) != b.custom_mask.row(i)) c.mask_rows.push_back(static_cast<int>(i));
  }
  return c;
}

Stage& stage(Trace& t, StageKind id, int head) {
  const int i = t.index_of({id, head});
  if (i < 0) throw std::logic_error("update_trace: the trace has no stage " + std::string(name_of(id)));
  return t.stages[static_cast<size_t>(i)];
}

// Swaps the token labels of `old` for those of `now` on every axis that
// shows them. False when an axis cannot be told apart from a feature axis.
bool relabel(Trace& t, const Scenario& old, const Scenario& now) {
  const Dims& d = t.dims;
  const auto oq = detail::token_labels(old.tokens, d.n_q, "t"), nq = detail::token_labels(now.tokens, d.n_q, "t");
  const auto ok = old.context ? detail::token_labels(old.context_tokens, d.n_k, "c") : oq;
  const auto nk = now.context ? detail::token_labels(now.context_tokens, d.n_k, "c") : nq;
  if (detail::index_labels(d.n_q) == oq || detail::index_labels(d.n_k) == ok || (old.context && oq == ok))
    return false;
  const Labels new_q = nq, new_k = old.context ? Labels(nk) : new_q;  // one list, shared by every stage
  for (Stage& st : t.stages)
    for (Labels* labels : {&st.row_labels, &st.col_labels}) {
      if (*labels == oq) *labels = new_q;
      else if (*labels == ok) *labels = new_k;
    }
  return true;
}

void replace_heads(Trace& t, const Scenario& now, const std::vector<int>& heads, Progress* progress) {
  std::vector<detail::HeadStages> fresh = detail::compute_heads(now, t.dims, detail::inputs_of(t), heads, progress);
  for (size_t i = 0; i < heads.size(); ++i) {
    detail::HeadStages& f = fresh[i];
    if (f.error) std::rethrow_exception(f.error);
    const int h = heads[i];
    auto first = std::find_if(t.stages.begin(), t.stages.end(), [h](const Stage& s) { return s.head == h; });
    auto last = std::find_if(first, t.stages.end(), [h](const Stage& s) { return s.head != h; });
    if (last - first != static_cast<long>(f.stages.size())) throw std::logic_error("update_trace: head layout changed");
    std::move(f.stages.begin(), f.stages.end(), first);
    t.softmax[static_cast<size_t>(h)] = std::move(f.softmax);
  }
}

// An edit of a few heads' weights updates the output from the one before
// by those heads' change: at 2048 tokens and 12 heads, one head's product is
// 0.2 of concat · W_O's 2.4 GFLOP. Updates round differently from the whole
// product, so push_output computes it whole once their drift grows.
void replace_output(Trace& t, const Scenario& now, Progress* progress, const Change& c) {
  detail::OutputBefore before;
  const Stage* concat = t.find(StageKind::concat);
  const Stage* output = t.find(StageKind::output);
  const bool update = now.w_o && !c.w_o && concat && output && !output->value.derived() &&
                      2 * c.heads.size() <= static_cast<size_t>(t.dims.n_heads);
  if (update) before = {concat->value.shared(), output->value.shared(), c.heads, t.output_drift};
  while (!t.stages.empty() && t.stages.back().head == -1 &&
         (t.stages.back().id == StageKind::output || t.stages.back().id == StageKind::w_o || t.stages.back().id == StageKind::concat))
    t.stages.pop_back();
  detail::push_output(t, now, t.find(StageKind::x)->row_labels, progress ? progress->max_threads : 0, update ? &before : nullptr);
}

// The rows whose mask changed, in every head: weights, head outputs, concat
// and output. False (do a full recompute) when a row is or becomes fully
// blocked, or a value overflows, so notes and errors come from one place.
bool update_mask_rows(Trace& t, const Scenario& now, const std::vector<int>& rows) {
  const Dims& d = t.dims;
  const BoolMat nb = detail::build_blocked(now, d);
  const BoolMat& ob = t.find(StageKind::masked, 0)->blocked.mat();
  for (int r : rows)
    if (ob.row(r).all() || nb.row(r).all()) return false;
  const SharedMask blocked(nb);
  const bool before = now.mask_mode == MaskMode::BeforeSoftmax;
  std::vector<Mat> outputs;
  for (int h = 0; h < d.n_heads; ++h) {
    const std::shared_ptr<const Mat> scores = stage(t, StageKind::scores, h).value.shared();
    Stage& masked = stage(t, StageKind::masked, h);
    Derivation md = masked.value.derivation();
    if (before) md.mask = blocked;
    masked.value = StageValues(scores, md);
    masked.blocked = blocked;
    Stage& w = stage(t, StageKind::weights, h);
    if (before) {
      SoftmaxStats& st = t.softmax[static_cast<size_t>(h)];
      for (int r : rows) detail::softmax_row_stats(*scores, md, r, st.max(r), st.sum(r));
      Derivation wd = md;
      wd.softmax = std::make_shared<const SoftmaxStats>(st);
      wd.softmax_over_rows = true;
      w.value = StageValues(scores, wd);
    } else {
      Stage& sm = stage(t, StageKind::softmax, h);
      sm.blocked = blocked;
      Derivation zeroed = w.value.derivation();
      zeroed.mask = blocked;
      w.value = StageValues(sm.value.shared(), zeroed);
    }
    w.blocked = blocked;
    const Mat& v = *stage(t, StageKind::v, d.kv_leader(h)).value.shared();
    Stage& ho = stage(t, StageKind::head_output, h);
    Mat out = ho.value.stored();
    for (int r : rows) out.row(r) = w.value.row(r) * v;
    ho.value = std::move(out);
    if (!ho.value.allFinite()) return false;
  }
  Stage& concat = stage(t, StageKind::concat, -1);
  Mat c = concat.value.stored();
  for (int h = 0; h < d.n_heads; ++h)
    for (int r : rows) c.block(r, (Eigen::Index)h * d.d_v, 1, d.d_v) = stage(t, StageKind::head_output, h).value.stored().row(r);
  concat.value = std::move(c);
  Stage& output = stage(t, StageKind::output, -1);
  if (now.w_o) {
    Mat o = output.value.stored();
    for (int r : rows) {
      o.row(r) = concat.value.stored().row(r) * *now.w_o;
      if (now.output_bias.size() > 0) o.row(r) += now.output_bias.transpose();
    }
    output.value = std::move(o);
    if (!output.value.allFinite()) return false;
  } else {
    output.value = StageValues(concat.value.shared(), Derivation{});
  }
  return true;
}

}  // namespace

namespace {

// A mask edit alone, which updates the rows it changed.
bool mask_alone(const Change& c) { return !c.mask_rows.empty() && c.heads.empty() && !c.w_o; }

// Changes update_trace cannot update in place.
bool updatable(const std::optional<Change>& c, const Scenario& now) {
  return c && (c->mask_rows.empty() || (mask_alone(*c) && now.softmax_axis == SoftmaxAxis::Keys));
}

}  // namespace

bool recomputes_everything(const Scenario& old, const Scenario& now) { return !updatable(classify(old, now), now); }

Trace update_trace(const Trace& before, const Scenario& old, const Scenario& now, const Limits& limits,
                   Progress* progress) {
  if (std::string e = validate(now, limits); !e.empty()) throw std::invalid_argument(e);
  const std::optional<Change> c = classify(old, now);
  if (!before.complete || !updatable(c, now)) return compute_trace(now, limits, progress);
  Trace t = before;  // stages share their matrices: copying is cheap
  if (c->labels && !relabel(t, old, now)) return compute_trace(now, limits, progress);
  if (mask_alone(*c)) return update_mask_rows(t, now, c->mask_rows) ? t : compute_trace(now, limits, progress);
  if (!c->heads.empty()) replace_heads(t, now, c->heads, progress);
  if (!c->heads.empty() || c->w_o) replace_output(t, now, progress, *c);
  return t;
}

}  // namespace attn
