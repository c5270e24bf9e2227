// One decode step with a KV cache (attn/decode/decode.hpp): only the new token's
// rows are projected; its key and value are appended to the cache, and its
// query attends to every cached row. The arithmetic mirrors the full trace's
// (the same PE, RoPE, scale, ALiBi bias and mask rule), so step t's rows
// equal row t of compute_trace to rounding.
#include "attn/decode/decode.hpp"

#include "attn/compute/score_scale.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "attn/compute/masks.hpp"
#include "attn/text/format_number.hpp"
#include "attn/compute/rope.hpp"
#include "attn/compute/score_scale.hpp"
#include "compute/positions/positional.hpp"
#include "compute/stage_builder.hpp"
#include "decode/decode_check.hpp"
#include "decode/decode_input.hpp"
#include "decode/decode_stages.hpp"

namespace attn {
namespace {

using Row = Eigen::RowVectorXd;
using K = StageKind;
using detail::push_step_stage;
using detail::StepScene;

constexpr double kBlockedLogit = -std::numeric_limits<double>::infinity();

// The new row through one weight (or the input itself without projections),
// turned to position t when `rotate`.
Mat project(const Row& x, const Mat* w, const Scenario& s, int t, bool rotate) {
  Mat row = w ? Mat(x * *w) : Mat(x);  // (1, width)
  return rotate && s.rope.on ? apply_rope(row, s.rope, t) : row;
}

std::string projection_formula(const char* out, const char* weight, bool projected, bool rotated) {
  const std::string product = projected ? std::string("x_t · ") + weight : std::string("x_t (no projection)");
  return std::string(out) + " = " + (rotated ? "RoPE(" + product + ", position t)" : product);
}

// Appends the new row under the reused ones: (t+1, width).
Mat appended(const std::shared_ptr<const Mat>& before, const Mat& row) {
  Mat m((before ? before->rows() : 0) + 1, row.cols());
  if (before && before->rows() > 0) m.topRows(before->rows()) = *before;
  m.bottomRows(1) = row;
  return m;
}

void key_value_head(DecodeStep& step, const StepScene& sc, const Row& x, int h, const DecodeCache& before) {
  const Scenario& s = sc.s;
  const size_t g = static_cast<size_t>(sc.d.kv_index(h));
  const HeadWeights* w = sc.d.projected ? &s.heads[static_cast<size_t>(h)] : nullptr;
  const std::string reused =
      sc.t == 0 ? "nothing cached yet, row 0 new"
                : "rows 0–" + std::to_string(sc.t - 1) + " reused, row " + std::to_string(sc.t) + " new";
  // Copies: a later push may move the stages.
  const Mat k_row =
      push_step_stage(step, sc, K::step_k, h, projection_formula("k_t", "W_K", w, s.rope.on), {{K::x, -1}, {K::w_k, h}},
                      project(x, w ? &w->w_k : nullptr, s, sc.t, true), sc.new_token, sc.dims_k)
          .value.stored();
  const Mat v_row =
      push_step_stage(step, sc, K::step_v, h, projection_formula("v_t", "W_V", w, false), {{K::x, -1}, {K::w_v, h}},
                      project(x, w ? &w->w_v : nullptr, s, sc.t, false), sc.new_token, sc.dims_v)
          .value.stored();
  const std::shared_ptr<const Mat> k_before = g < before.k.size() ? before.k[g] : nullptr;
  const std::shared_ptr<const Mat> v_before = g < before.v.size() ? before.v[g] : nullptr;
  step.cache.k[g] = push_step_stage(step, sc, K::k_cache, h, "K_cache = [K_cache; k_t] (" + reused + ")",
                                    {{K::step_k, h}}, appended(k_before, k_row), sc.cached, sc.dims_k)
                        .value.shared();
  step.cache.v[g] = push_step_stage(step, sc, K::v_cache, h, "V_cache = [V_cache; v_t] (" + reused + ")",
                                    {{K::step_v, h}}, appended(v_before, v_row), sc.cached, sc.dims_v)
                        .value.shared();
}

std::string logits_formula(const Scenario& s) {
  const std::string scale = s.scale == ScaleMode::SqrtDk ? " / √d_k" : s.scale == ScaleMode::Temperature ? " / τ" : "";
  const std::string bias = s.positional == Positional::Alibi ? " − m·(t − j)" : "";
  const std::string scaled = "s_t[j]" + scale;
  return "l_t[j] = blocked ? −∞ : " + (s.softcap > 0 ? "c·tanh(" + scaled + " / c)" : scaled) + bias +
         (s.softcap > 0 ? ", c = " + format_number(s.softcap) : "");
}

// The new query against the cache of its key/value head.
Row query_head(DecodeStep& step, const StepScene& sc, const Row& x, int h) {
  const Scenario& s = sc.s;
  const int t = sc.t, L = t + 1, leader = sc.d.kv_leader(h);
  const size_t g = static_cast<size_t>(sc.d.kv_index(h));
  const HeadWeights* w = sc.d.projected ? &s.heads[static_cast<size_t>(h)] : nullptr;
  const Mat q =
      push_step_stage(step, sc, K::step_q, h, projection_formula("q_t", "W_Q", w, s.rope.on), {{K::x, -1}, {K::w_q, h}},
                      project(x, w ? &w->w_q : nullptr, s, t, true), sc.new_token, sc.dims_k)
          .value.stored();
  const Mat& k_cache = *step.cache.k[g];       // (L, d_k)
  const Mat& v_cache = *step.cache.v[g];       // (L, d_v)
  const Mat scores = q * k_cache.transpose();  // (1, L)
  push_step_stage(step, sc, K::step_scores, h, std::string(info_of(K::step_scores).formula),
                  {{K::step_q, h}, {K::k_cache, leader}}, scores, sc.new_token, sc.cached);

  const double divisor = score_divisor(s, sc.d.d_k);
  const double slope = s.positional == Positional::Alibi ? detail::alibi_slope(h, sc.d.n_heads) : 0.0;
  BoolMat blocked(1, L);
  Mat logits(1, L);  // scaled, + ALiBi bias, −∞ where blocked
  double max = kBlockedLogit;
  for (int j = 0; j < L; ++j) {
    blocked(0, j) = mask_blocks(s, t, j);
    double v = soft_capped(scores(0, j) / divisor, s.softcap);
    if (s.positional == Positional::Alibi) v += -slope * std::abs(t - j);
    logits(0, j) = blocked(0, j) ? kBlockedLogit : v;
    if (!blocked(0, j) && v > max) max = v;
  }
  const SharedMask mask(blocked);
  push_step_stage(step, sc, K::step_logits, h, logits_formula(s), {{K::step_scores, h}}, logits, sc.new_token,
                  sc.cached, ValueKind::Signed, mask);

  // Subtracting the row's max keeps exp from overflowing; a row with every
  // key blocked has weights 0, as the trace defines them.
  Mat weights = Mat::Zero(1, L);
  double sum = 0;
  for (int j = 0; j < L; ++j)
    if (!blocked(0, j)) sum += weights(0, j) = std::exp(logits(0, j) - max);
  if (sum > 0) weights /= sum;
  push_step_stage(step, sc, K::step_weights, h, "a_t = softmax(l_t) over the cached keys", {{K::step_logits, h}},
                  weights, sc.new_token, sc.cached, ValueKind::Probability, mask);

  const Row z = weights * v_cache;  // (1, d_v)
  push_step_stage(step, sc, K::step_head_output, h, std::string(info_of(K::step_head_output).formula),
                  {{K::step_weights, h}, {K::v_cache, leader}}, z, sc.new_token, sc.dims_v);
  return z;
}

DecodeStep unchecked_step(const Scenario& s, const DecodeCache& before) {
  const StepScene sc = detail::step_scene(s, before.tokens);
  DecodeStep step;
  step.t = step.new_row = sc.t;
  step.cache.tokens = sc.t + 1;
  step.cache.k.resize(static_cast<size_t>(sc.d.n_kv_heads));
  step.cache.v.resize(static_cast<size_t>(sc.d.n_kv_heads));
  const Row x = detail::decode_input_row(s, sc.t);
  Row concat(static_cast<Eigen::Index>(sc.d.n_heads) * sc.d.d_v);  // (1, heads·d_v)
  std::vector<StageRef> heads_in;
  for (int h = 0; h < sc.d.n_heads; ++h) {
    if (!sc.d.shares_kv(h)) key_value_head(step, sc, x, h, before);
    concat.segment(static_cast<Eigen::Index>(h) * sc.d.d_v, sc.d.d_v) = query_head(step, sc, x, h);
    heads_in.push_back({K::step_head_output, h});
  }
  if (s.w_o) heads_in.push_back({K::w_o, -1});
  Mat output = s.w_o ? Mat(concat * *s.w_o) : Mat(concat);  // (1, d_out)
  if (s.output_bias.size() > 0) output.row(0) += s.output_bias.transpose();
  const std::string formula = !s.w_o                      ? "y_t = [z_t of every head] (no W_O)"
                              : s.output_bias.size() > 0 ? "y_t = concat_t · W_O + b_O"
                                                         : std::string(info_of(K::step_output).formula);
  push_step_stage(step, sc, K::step_output, -1, formula, heads_in,
                  output, sc.new_token, detail::index_labels(sc.d.d_out));
  step.cost = decode_cost(sc.d, s.w_o.has_value(), sc.t);
  return step;
}

void require_matching_cache(const Scenario& s, const DecodeCache& c) {
  const Dims d = dims_of(s);
  const size_t heads = c.tokens == 0 ? 0 : static_cast<size_t>(d.n_kv_heads);
  bool ok = c.tokens >= 0 && c.k.size() == heads && c.v.size() == heads;
  for (size_t g = 0; ok && g < heads; ++g)
    ok = c.k[g] && c.v[g] && c.k[g]->rows() == c.tokens && c.v[g]->rows() == c.tokens && c.k[g]->cols() == d.d_k &&
         c.v[g]->cols() == d.d_v;
  if (!ok)
    throw std::invalid_argument("decode_step: the cache does not belong to this scene (expected " +
                                std::to_string(d.n_kv_heads) + " key/value heads of " + std::to_string(c.tokens) +
                                " rows, " + std::to_string(d.d_k) + " and " + std::to_string(d.d_v) + " wide)");
}

}  // namespace

Eigen::RowVectorXd detail::decode_input_row(const Scenario& s, int t) {
  Row x = s.x.row(t);
  if (s.positional != Positional::Sinusoidal) return x;
  const int d = static_cast<int>(x.size());
  for (int k = 0; k < d; ++k) {
    const double a = detail::sinusoidal_angle(t, k, d);
    x(k) += k % 2 == 0 ? std::sin(a) : std::cos(a);
  }
  return x;
}

const Stage* DecodeStep::find(StageKind id, int head) const {
  for (const Stage& st : stages)
    if (st.id == id && st.head == head) return &st;
  return nullptr;
}

DecodeStep decode_step(const Scenario& s, const DecodeCache& cache) {
  detail::refuse_undecodable_options(s, cache.tokens + 1);
  detail::refuse_later_keys(s, cache.tokens, cache.tokens);
  require_matching_cache(s, cache);
  return unchecked_step(s, cache);
}

DecodeTrace compute_decode(const Scenario& s, int steps) {
  const int n = steps < 0 ? static_cast<int>(s.x.rows()) : steps;
  check_decodable(s, n);
  DecodeTrace out;
  out.dims = dims_of(s);
  // Each kept step holds its own cache: about n²/2 rows of every key/value head.
  const double kept = 0.5 * n * (n + 1.0) * out.dims.n_kv_heads * (out.dims.d_k + out.dims.d_v) * 8.0;
  const Limits limits;
  if (kept > static_cast<double>(limits.max_trace_bytes))
    throw std::invalid_argument("steps: keeping all " + std::to_string(n) + " steps would hold " +
                                std::to_string(static_cast<long long>(kept / 1e6)) +
                                " MB of caches (one copy per step); decode fewer steps, or one at a time with "
                                "decode_step");
  out.steps.reserve(static_cast<size_t>(n));
  DecodeCache cache;
  for (int t = 0; t < n; ++t) {
    out.steps.push_back(unchecked_step(s, cache));
    cache = out.steps.back().cache;
  }
  return out;
}

}  // namespace attn
