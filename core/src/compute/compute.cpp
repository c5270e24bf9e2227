// The attention pipeline, one stage per formula in the articles:
// inputs (+ positional encoding) -> per head: Q, K, V -> scores -> scaled
// (-> ALiBi bias) -> masked -> weights -> head output -> concat -> W_O.
// Every intermediate is kept so it can be drawn and explained: the GEMM
// results are stored; scaled, biased and masked logits, and the weights
// (from each line's max and sum), are derived from the stored scores on
// demand (stage_values.hpp), exactly.
//
// Heads are independent, so large traces compute them on the machine's
// cores (head_pool.hpp); each head's arithmetic is the same whichever thread
// runs it, so a threaded trace equals a single-threaded one bit for bit.
#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>

#include "attn/compute/masks.hpp"
#include "attn/compute/trace.hpp"
#include "execution/fresh_matrix.hpp"
#include "execution/head_pool.hpp"
#include "compute/head_stages.hpp"
#include "compute/softmax.hpp"
#include "compute/positions/positional.hpp"
#include "compute/stage_builder.hpp"
#include "compute/trace_parts.hpp"

namespace attn {
namespace {

using detail::index_labels;
using detail::plain_formula;
using detail::plain_title;
using detail::push_stage;
using detail::StageSpec;

// The three stages of one sequence: its raw embeddings, their positional
// encoding and the sum the heads read (X, or the context).
struct SequenceKinds {
  StageKind raw, pe, sum;
};
constexpr SequenceKinds kQueriesSequence{StageKind::x_raw, StageKind::pe, StageKind::x};
constexpr SequenceKinds kContextSequence{StageKind::context_raw, StageKind::pe_context, StageKind::context};

// Adds the input stages for one sequence and returns the (possibly
// position-encoded) sequence the heads read.
std::shared_ptr<const Mat> push_sequence(Trace& t, const Mat& raw, SequenceKinds kinds, const Labels& rows,
                                         bool sinusoidal) {
  const int n = (int)raw.rows(), d = (int)raw.cols();
  if (!sinusoidal) {
    // validate() has proved the inputs finite: no second pass over them.
    push_stage(t, {kinds.sum, -1, plain_title(kinds.sum), plain_formula(kinds.sum), {}, ValueKind::Signed, rows,
                   index_labels(d)}, detail::copy_of(raw), {}, false, true);
    return t.stages.back().value.shared();
  }
  push_stage(t, {kinds.raw, -1, plain_title(kinds.raw), plain_formula(kinds.raw), {}, ValueKind::Signed, rows,
                 index_labels(d)}, detail::copy_of(raw), {}, false, true);
  Mat pe = detail::sinusoidal_encoding(n, d);
  Mat sum = detail::fresh_matrix(n, d);
  sum = raw + pe;
  push_stage(t, {kinds.pe, -1, plain_title(kinds.pe), plain_formula(kinds.pe), {}, ValueKind::Signed, rows,
                 index_labels(d)}, std::move(pe));
  const std::string symbol(info_of(kinds.sum).symbol);
  push_stage(t, {kinds.sum, -1, symbol + " + PE", symbol + " = embeddings + PE", {{kinds.raw, -1}, {kinds.pe, -1}},
                 ValueKind::Signed, rows, index_labels(d)}, std::move(sum));
  return t.stages.back().value.shared();
}

}  // namespace

namespace detail {

Trace start_trace(const Scenario& s) {
  Trace t;
  t.dims = dims_of(s);
  // Inputs (X, context, positions), every head, then concat, W_O and the output.
  t.stages.reserve(8 + static_cast<size_t>(t.dims.n_heads) * kMostStagesPerHead);
  t.softmax_axis = s.softmax_axis;
  t.mask_mode = s.mask_mode;
  t.score = s.score;
  return t;
}

BoolMat build_blocked(const Scenario& s, const Dims& d) {
  const bool any = s.mask != MaskKind::None || !s.key_padding.empty();
  if (!any) return {};
  BoolMat b(d.n_q, d.n_k);
  for (int j = 0; j < d.n_k; ++j)
    for (int i = 0; i < d.n_q; ++i) b(i, j) = mask_blocks(s, i, j);
  return b;
}

HeadInputs push_inputs(Trace& t, const Scenario& s) {
  const Dims& d = t.dims;
  HeadInputs in;
  in.queries = detail::token_labels(s.tokens, d.n_q, "t");
  in.keys = s.context ? Labels(detail::token_labels(s.context_tokens, d.n_k, "c")) : in.queries;
  const bool sin = s.positional == Positional::Sinusoidal;
  in.x = push_sequence(t, s.x, kQueriesSequence, in.queries, sin);
  in.x_id = t.stages.back().id;
  in.kv = in.x;
  in.kv_id = in.x_id;
  if (s.context) {
    in.kv = push_sequence(t, *s.context, kContextSequence, in.keys, sin);
    in.kv_id = t.stages.back().id;
  }
  in.blocked = build_blocked(s, d);
  set_dim_labels(in, d);
  return in;
}

HeadInputs inputs_of(const Trace& t) {
  HeadInputs in;
  const Stage* x = t.find(StageKind::x);
  const Stage* kv = t.find(StageKind::context) ? t.find(StageKind::context) : x;
  in.x = x->value.shared();
  in.kv = kv->value.shared();
  in.x_id = x->id;
  in.kv_id = kv->id;
  in.queries = x->row_labels;
  in.keys = kv->row_labels;
  // Every head's masked logits show the same mask.
  for (const Stage& s : t.stages)
    if (s.id == StageKind::masked) {
      in.blocked = s.blocked;
      break;
    }
  // The keys and values each group's first head computed, for the heads
  // that share them (where the trace holds that head).
  const Dims& d = t.dims;
  in.shared_k.resize(static_cast<size_t>(d.n_kv_heads));
  in.shared_v.resize(static_cast<size_t>(d.n_kv_heads));
  for (int g = 0; g < d.n_kv_heads; ++g) {
    const int leader = g * d.group();
    const Stage* k = t.find(StageKind::k_rope, leader);
    if (!k) k = t.find(StageKind::k, leader);
    const Stage* v = t.find(StageKind::v, leader);
    if (k) in.shared_k[static_cast<size_t>(g)] = k->value.shared();
    if (v) in.shared_v[static_cast<size_t>(g)] = v->value.shared();
  }
  set_dim_labels(in, t.dims);
  return in;
}

namespace {

// The heads of `heads` at `which` (indices into it), each on the machine's cores.
void run_some_heads(std::vector<HeadStages>& out, const Scenario& s, const Dims& d, const HeadInputs& in,
                    const std::vector<int>& heads, const std::vector<size_t>& which, Progress* progress) {
  if (which.empty()) return;
  ScratchPool scratch;
  const int count = static_cast<int>(which.size());
  // One thread a head; the row blocks inside a head go to whichever threads
  // of the loop have no head left (run_heads), not to threads of their own.
  run_heads(count, d, progress, [&](int i) {
    const size_t at = which[static_cast<size_t>(i)];
    out[at] = compute_head(s, d, heads[at], in, &scratch);
  });
}

}  // namespace

std::vector<HeadStages> compute_heads(const Scenario& s, const Dims& d, const HeadInputs& in,
                                      const std::vector<int>& heads, Progress* progress) {
  std::vector<HeadStages> out(heads.size());
  // Grouped-query attention: the heads that compute their group's keys and
  // values first, then the heads that read them.
  std::vector<size_t> first, then;
  for (size_t i = 0; i < heads.size(); ++i) (d.shares_kv(heads[i]) ? then : first).push_back(i);
  run_some_heads(out, s, d, in, heads, first, progress);
  if (then.empty()) return out;
  HeadInputs shared = in;
  shared.shared_k.resize(static_cast<size_t>(d.n_kv_heads));
  shared.shared_v.resize(static_cast<size_t>(d.n_kv_heads));
  for (size_t i : first) {
    if (out[i].error) return out;  // rethrown in head order by the caller
    shared.shared_k[static_cast<size_t>(d.kv_index(heads[i]))] = out[i].k;
    shared.shared_v[static_cast<size_t>(d.kv_index(heads[i]))] = out[i].v;
  }
  run_some_heads(out, s, d, shared, heads, then, progress);
  return out;
}

void push_heads(Trace& t, const Scenario& s, const HeadInputs& in, Progress* progress, const std::vector<int>& which) {
  const Dims& d = t.dims;
  std::vector<int> heads = which;
  if (heads.empty())
    for (int h = 0; h < d.n_heads; ++h) heads.push_back(h);
  // Heads in parallel (when they are worth a thread), appended in order.
  std::vector<HeadStages> done = compute_heads(s, d, in, heads, progress);
  t.softmax.resize(static_cast<size_t>(d.n_heads));
  for (size_t i = 0; i < heads.size(); ++i) {
    HeadStages& h = done[i];
    if (h.error) std::rethrow_exception(h.error);
    for (Stage& st : h.stages) t.stages.push_back(std::move(st));
    t.softmax[static_cast<size_t>(heads[i])] = std::move(h.softmax);
    for (std::string& note : h.notes) t.notes.push_back(std::move(note));
  }
}

Mat output_product(const Mat& concat, const Mat& w_o, int max_threads) {
  return tiled_product(concat, w_o, max_threads);
}

void push_output(Trace& t, const Scenario& s, const Labels& queries, int max_threads, const OutputBefore* before) {
  const Dims& d = t.dims;
  Mat concat = fresh_matrix(d.n_q, (Eigen::Index)d.n_heads * d.d_v);  // (n_q, heads * d_v), every column set below
  std::vector<StageRef> heads_in;
  std::vector<const Mat*> outputs;
  for (int h = 0; h < d.n_heads; ++h) {
    outputs.push_back(&t.find(StageKind::head_output, h)->value.stored());
    heads_in.push_back({StageKind::head_output, h});
  }
  // A head a thread: at 2048 tokens the copy is 12 MB, a few milliseconds
  // that many cores would otherwise wait through.
  const double copy_work = static_cast<double>(d.n_q) * d.d_v;
  for_each_item(d.n_heads, thread_count(copy_work, d.n_heads, max_threads), copy_work, [&](int h) {
    concat.middleCols((Eigen::Index)h * d.d_v, d.d_v) = *outputs[static_cast<size_t>(h)];
  });
  push_stage(t, {StageKind::concat, -1, plain_title(StageKind::concat),
                 plain_formula(StageKind::concat), heads_in, ValueKind::Signed,
                 queries, index_labels((int)concat.cols())}, std::move(concat));
  const std::shared_ptr<const Mat> concat_values = t.stages.back().value.shared();
  t.output_drift = 0;
  if (s.w_o) {
    push_stage(t, {StageKind::w_o, -1, plain_title(StageKind::w_o), plain_formula(StageKind::w_o), {}, ValueKind::Signed, index_labels((int)s.w_o->rows()),
                   index_labels(d.d_out)}, copy_of(*s.w_o), {}, false, true);  // finite: validated
    Mat out;  // (n_q, d_out)
    if (before) {
      out = copy_of(*before->output);
      double moved = before->output->cwiseAbs().maxCoeff();
      for (int h : before->heads) {
        const Eigen::Index first = static_cast<Eigen::Index>(h) * d.d_v;
        const Mat change = concat_values->middleCols(first, d.d_v) - before->concat->middleCols(first, d.d_v);
        const Mat step = tiled_product(change, s.w_o->middleRows(first, d.d_v), max_threads);
        moved += step.cwiseAbs().maxCoeff();
        out += step;
      }
      // Each addition rounds in proportion to what it adds, so a small
      // output left from large terms (a big edit undone) carries their error.
      t.output_drift = before->drift + moved * std::numeric_limits<double>::epsilon();
      if (!(t.output_drift <= kMaxOutputDrift * out.cwiseAbs().maxCoeff())) t.output_drift = -1;
    }
    if (!before || t.output_drift < 0) {
      out = output_product(*concat_values, *s.w_o, max_threads);
      if (s.output_bias.size() > 0) out.rowwise() += s.output_bias.transpose();
      t.output_drift = 0;
    }
    push_stage(t, {StageKind::output, -1, plain_title(StageKind::output),
                   s.output_bias.size() > 0 ? "output = concat · W_O + b_O" : plain_formula(StageKind::output),
                   {{StageKind::concat, -1}, {StageKind::w_o, -1}},
                   ValueKind::Signed, queries, index_labels(d.d_out)}, std::move(out));
  } else {
    push_stage(t, {StageKind::output, -1, plain_title(StageKind::output), "output = concat (no W_O)",
                   {{StageKind::concat, -1}}, ValueKind::Signed,
                   queries, index_labels(d.d_out)}, StageValues(concat_values, Derivation{}));
  }
}

}  // namespace detail

Trace compute_trace(const Scenario& s, const Limits& limits, Progress* progress) {
  if (std::string e = validate(s, limits); !e.empty()) throw std::invalid_argument(e);
  Trace t = detail::start_trace(s);
  const detail::HeadInputs in = detail::push_inputs(t, s);
  detail::push_heads(t, s, in, progress);
  detail::push_output(t, s, in.queries, progress ? progress->max_threads : 0);
  return t;
}

double softmax_exp(const Trace& trace, int head, int i, int j) {
  const Stage* masked = trace.find(StageKind::masked, head);
  const SoftmaxStats& st = trace.softmax[static_cast<size_t>(head)];
  const double mx = trace.softmax_axis == SoftmaxAxis::Keys ? st.max(i) : st.max(j);
  return detail::exp_like_softmax((*masked).value(i, j) - mx);
}

}  // namespace attn
