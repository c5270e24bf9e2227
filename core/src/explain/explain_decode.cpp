// Explains a KV-cache decode step's cells (attn/explain/decode_explain.hpp): the
// score row as dot products with cached keys, the logit row's scale, bias
// and mask, the softmax row, weights · V_cache and the output row; the new
// rows and cache rows in explain_decode_rows.cpp.
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include "attn/explain/decode_explain.hpp"
#include "attn/text/format_number.hpp"
#include "compute/positions/positional.hpp"
#include "explain/decode_cell.hpp"
#include "explain/explain_sums.hpp"

namespace attn::detail::decode_explain {

void score(const Cell& x) {
  const int h = x.st.head, j = x.c;
  const StageRef k_ref = x.st.inputs.at(1);
  const Mat& q = x.in(K::step_q, h);
  const Mat& k = x.in(K::k_cache, k_ref.head);
  x.e.formula = "s_t[j] = q_t · K_cache[j] = Σ_c q_t[c] × K_cache[j,c]";
  explain_sum_of_products(
      x.e, static_cast<int>(q.cols()), [&](int c) { return q(0, c); }, [&](int c) { return at(K::step_q, 0, c); },
      [&](int c) { return k(j, c); }, [&](int c) { return at(K::k_cache, j, c); });
  x.source(K::step_q, h, 0, 1, 0, static_cast<int>(q.cols()));
  x.source(K::k_cache, k_ref.head, j, j + 1, 0, static_cast<int>(k.cols()));
  x.e.note = "k_" + std::to_string(j) + " was " + origin(j, x.step.t) +
             (k_ref.head != h ? "; head " + std::to_string(h) + " reads the cache of head " +
                                    std::to_string(k_ref.head) + " (grouped-query attention)"
                              : std::string());
}

void logit(const Cell& x) {
  const int h = x.st.head, t = x.step.t, j = x.c;
  const double s = x.in(K::step_scores, h)(0, j);
  x.source(K::step_scores, h, 0, 1, j, j + 1);
  x.e.formula = x.st.formula;
  double v = s;
  if (x.s.scale != ScaleMode::None) {
    const bool root = x.s.scale == ScaleMode::SqrtDk;
    const double by = root ? std::sqrt(static_cast<double>(x.step.find(K::step_q, h)->value.cols())) : x.s.temperature;
    v = s / by;
    x.e.steps.push_back({root ? "divide by √d_k" : "divide by τ",
                         {{at(K::step_scores, 0, j), s, "÷", root ? "√d_k" : "τ", by, v}},
                         format_number(s) + " ÷ " + format_number(by) + " = " + format_number(v),
                         v});
  }
  if (x.s.softcap > 0) v = detail::explain_soft_cap(x.e, v, x.s.softcap);
  if (x.s.positional == Positional::Alibi) {
    const double m = alibi_slope(h, static_cast<int>(x.s.heads.empty() ? 1 : x.s.heads.size()));
    const double bias = -m * std::abs(t - j);
    x.e.steps.push_back({"ALiBi bias",
                         {{"scaled", v, "+", "−m × |t − j|", bias, v + bias}},
                         format_number(v) + " + " + format_number(bias) + " = " + format_number(v + bias),
                         v + bias});
    v += bias;
  }
  if (x.st.is_blocked(0, j)) {
    x.e.steps.push_back({"blocked", {}, format_number(v) + " → −∞", -std::numeric_limits<double>::infinity()});
    x.e.note = "the mask hides key " + std::to_string(j) + " from query " + std::to_string(t) +
               " (e.g. outside a sliding window, off the stride, or padding): it stays in the cache but gets no weight";
  } else if (x.e.steps.empty()) {
    x.single("no scaling", at(K::step_scores, 0, j), v);
  }
}

void weight(const Cell& x) {
  const int h = x.st.head, j = x.c;
  const Mat& l = x.in(K::step_logits, h);
  const int n = static_cast<int>(l.cols());
  x.source(K::step_logits, h, 0, 1, 0, n);
  x.e.formula = "a_t[j] = exp(l_t[j] − max) / Σ_k exp(l_t[k] − max), over the cached keys";
  double m = -std::numeric_limits<double>::infinity();
  for (int k = 0; k < n; ++k)
    if (!x.st.is_blocked(0, k)) m = std::max(m, l(0, k));
  if (std::isinf(m)) {
    x.e.steps.push_back({"fully masked", {}, "weight = 0", 0});
    x.e.note = "every cached key is masked for this query: its weights are defined as 0";
    return;
  }
  ExplainStep sum{"row sum", {}, "", 0};
  for (int k = 0; k < n; ++k) {
    if (x.st.is_blocked(0, k)) continue;
    const double ek = std::exp(l(0, k) - m);
    sum.terms.push_back({"exp(" + at(K::step_logits, 0, k) + " − max)", ek, "", "", 0, ek});
    sum.result += ek;
  }
  sum.equation = "Σ = " + sum_equation(sum.terms, sum.result);
  const double e = x.st.is_blocked(0, j) ? 0.0 : std::exp(l(0, j) - m);
  x.e.steps.push_back({"row max", {}, "max = " + format_number(m) + " (subtracted so exp never overflows)", m});
  x.e.steps.push_back({"exp",
                       {},
                       x.st.is_blocked(0, j)
                           ? "exp(−∞) = 0"
                           : "exp(" + format_number(l(0, j)) + " − " + format_number(m) + ") = " + format_number(e),
                       e});
  x.e.steps.push_back(sum);
  x.e.steps.push_back({"quotient",
                       {{"exp", e, "÷", "sum", sum.result, e / sum.result}},
                       format_number(e) + " ÷ " + format_number(sum.result) + " = " + format_number(e / sum.result),
                       e / sum.result});
}

void head_output(const Cell& x) {
  const int h = x.st.head, c = x.c;
  const StageRef v_ref = x.st.inputs.at(1);
  const Mat& a = x.in(K::step_weights, h);
  const Mat& v = x.in(K::v_cache, v_ref.head);
  x.e.formula = "z_t[c] = Σ_j a_t[j] × V_cache[j,c]: the cached value rows weighted by the new query's attention";
  explain_sum_of_products(
      x.e, static_cast<int>(a.cols()), [&](int j) { return a(0, j); }, [&](int j) { return at(K::step_weights, 0, j); },
      [&](int j) { return v(j, c); }, [&](int j) { return at(K::v_cache, j, c); });
  x.source(K::step_weights, h, 0, 1, 0, static_cast<int>(a.cols()));
  x.source(K::v_cache, v_ref.head, 0, static_cast<int>(v.rows()), c, c + 1);
  const int t = x.step.t;
  x.e.note = t == 0 ? "V_cache row 0 was computed this step"
                    : "V_cache rows 0–" + std::to_string(t - 1) + " were reused from the cache, row " +
                          std::to_string(t) + " computed this step";
}

void output(const Cell& x) {
  const int d_v = static_cast<int>(x.in(K::step_head_output, 0).cols());
  auto concat = [&](int k) { return x.in(K::step_head_output, k / d_v)(0, k % d_v); };
  auto concat_label = [&](int k) {
    return "z_t(head " + std::to_string(k / d_v) + ")[" + std::to_string(k % d_v) + "]";
  };
  if (!x.s.w_o) {
    x.e.formula = "y_t = the heads' rows side by side (no W_O)";
    x.single("copy from head " + std::to_string(x.c / d_v), concat_label(x.c), concat(x.c));
    x.source(K::step_head_output, x.c / d_v, 0, 1, x.c % d_v, x.c % d_v + 1);
    return;
  }
  const Mat& w_o = *x.s.w_o;
  x.e.formula = "y_t[c] = Σ_k concat_t[k] × W_O[k,c], concat_t = [z_t of every head]";
  explain_sum_of_products(
      x.e, static_cast<int>(w_o.rows()), concat, concat_label, [&](int k) { return w_o(k, x.c); },
      [&](int k) { return at(K::w_o, k, x.c); });
  if (x.s.output_bias.size() > 0) {
    x.e.formula = "y_t[c] = Σ_k concat_t[k] × W_O[k,c] + b_O[c], concat_t = [z_t of every head]";
    explain_plus_bias(x.e, "b_O[" + std::to_string(x.c) + "]", x.s.output_bias(x.c));
  }
  for (int h = 0; h * d_v < w_o.rows(); ++h) x.source(K::step_head_output, h, 0, 1, 0, d_v);
  x.source(K::w_o, -1, 0, static_cast<int>(w_o.rows()), x.c, x.c + 1);
}

}  // namespace attn::detail::decode_explain

namespace attn {

Explanation explain_decode(const DecodeStep& step, const Scenario& scenario, const StageRef& ref, int row, int col) {
  const Stage* st = step.find(ref.id, ref.head);
  if (!st)
    throw std::out_of_range("decode step " + std::to_string(step.t) + " has no stage \"" + to_string(ref.id) + "\"" +
                            (ref.head >= 0 ? " for head " + std::to_string(ref.head) : std::string()));
  if (row < 0 || row >= st->value.rows() || col < 0 || col >= st->value.cols())
    throw std::out_of_range("cell [" + std::to_string(row) + "][" + std::to_string(col) +
                            "] is out of range (stage \"" + to_string(ref.id) + "\" of decode step " +
                            std::to_string(step.t) + " is " + std::to_string(st->value.rows()) + "×" +
                            std::to_string(st->value.cols()) + ")");
  Explanation e;
  e.stage = ref;
  e.row = row, e.col = col;
  e.value = st->value(row, col);
  e.formula = st->formula;
  namespace dx = detail::decode_explain;
  const dx::Cell x{step, scenario, *st, row, col, e};
  switch (ref.id) {
    case StageKind::step_q:
    case StageKind::step_k:
    case StageKind::step_v:
      dx::projection(x);
      break;
    case StageKind::k_cache:
    case StageKind::v_cache:
      dx::cache_row(x);
      break;
    case StageKind::step_scores:
      dx::score(x);
      break;
    case StageKind::step_logits:
      dx::logit(x);
      break;
    case StageKind::step_weights:
      dx::weight(x);
      break;
    case StageKind::step_head_output:
      dx::head_output(x);
      break;
    case StageKind::step_output:
      dx::output(x);
      break;
    default:
      throw std::out_of_range("stage \"" + to_string(ref.id) + "\" is no decode stage");
  }
  return e;
}

}  // namespace attn
