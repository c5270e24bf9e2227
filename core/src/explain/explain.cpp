// Explains one cell with its real arithmetic: the products and sum behind a
// score, the division by √d_k or τ, the mask, the softmax's row max / exp /
// row sum / quotient, and the weight × value terms behind an output.
#include "attn/explain/explain.hpp"

#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <stdexcept>

#include "attn/compute/rope.hpp"
#include "attn/text/format_number.hpp"
#include "compute/positions/positional.hpp"
#include "explain/explain_sums.hpp"

namespace attn {
namespace {

// The letter the articles write a stage with (S, A, Z...), from the stage table.
std::string symbol(StageKind id) { return std::string(info_of(id).symbol); }

std::string cell(StageKind id, long r, long c) {
  return symbol(id) + "[" + std::to_string(r) + "," + std::to_string(c) + "]";
}

using detail::explain_plus_bias;
using detail::explain_sum_of_products;
using detail::sum_equation;

struct Context {
  const Trace& t;
  const Scenario& s;
  const Stage& st;
  int r, c;
  Explanation& e;
  const StageValues& in(StageKind id, int head) const {
    const Stage* p = t.find(id, head);
    if (!p) throw std::logic_error("missing input stage " + std::string(name_of(id)));
    return p->value;
  }
  void source(StageKind id, int head, long r0, long r1, long c0, long c1) const {
    e.sources.push_back({{id, head}, (int)r0, (int)r1, (int)c0, (int)c1});
  }
};

void explain_product(const Context& x, StageKind a_id, int a_head, StageKind b_id,
                     int b_head) {
  const StageValues& a = x.in(a_id, a_head);
  const StageValues& b = x.in(b_id, b_head);
  const int r = x.r, c = x.c;
  explain_sum_of_products(x.e, (int)a.cols(), [&](int t) { return a(r, t); },
                          [&](int t) { return cell(a_id, r, t); }, [&](int t) { return b(t, c); },
                          [&](int t) { return cell(b_id, t, c); });
  x.source(a_id, a_head, r, r + 1, 0, a.cols());
  x.source(b_id, b_head, 0, b.rows(), c, c + 1);
}

void explain_scores(const Context& x) {
  const int h = x.st.head, i = x.r, j = x.c;
  // The Q and K the scores read: rotated ones with RoPE, a group's K with GQA.
  const StageRef qr = x.st.inputs.at(0), kr = x.st.inputs.at(1);
  const StageValues& q = x.in(qr.id, qr.head);
  const StageValues& k = x.in(kr.id, kr.head);
  x.source(qr.id, qr.head, i, i + 1, 0, q.cols());
  x.source(kr.id, kr.head, j, j + 1, 0, k.cols());
  if (x.s.score == ScoreFn::Dot) {
    x.e.formula = "S[i,j] = q_i · k_j = Σ_t " + symbol(qr.id) + "[i,t] × " + symbol(kr.id) + "[j,t]";
    if (kr.head != h) x.e.note = "head " + std::to_string(h) + " reads the keys of head " + std::to_string(kr.head) +
                                 " (grouped-query attention)";
    explain_sum_of_products(x.e, (int)q.cols(), [&](int t) { return q(i, t); },
                            [&](int t) { return cell(qr.id, i, t); }, [&](int t) { return k(j, t); },
                            [&](int t) { return cell(kr.id, j, t); });
    return;
  }
  x.e.formula = "S[i,j] = Σ_a v[a] × tanh((q_i W)[a] + (k_j U)[a])";
  const int d_k = (int)q.cols();
  Mat w = Mat::Identity(d_k, d_k), u = Mat::Identity(d_k, d_k);
  Vec v = Vec::Ones(d_k);
  if (!x.s.additive.empty()) {
    const AdditiveParams& p = x.s.additive[(size_t)h];
    w = p.w, u = p.u, v = p.v;
  }
  const Eigen::RowVectorXd qw = q.row(i) * w, ku = k.row(j) * u;
  ExplainStep pre{"hidden = q_i W + k_j U", {}, "", 0}, act{"tanh", {}, "", 0}, out{"v × tanh", {}, "", 0};
  double sum = 0;
  for (Eigen::Index a = 0; a < qw.size(); ++a) {
    const std::string idx = "[" + std::to_string(a) + "]";
    const double hsum = qw(a) + ku(a), th = std::tanh(hsum);
    pre.terms.push_back({"(q W)" + idx, qw(a), "+", "(k U)" + idx, ku(a), hsum});
    act.terms.push_back({"hidden" + idx, hsum, "tanh", "", 0, th});
    out.terms.push_back({"v" + idx, v(a), "×", "tanh" + idx, th, v(a) * th});
    sum += v(a) * th;
  }
  out.result = sum;
  out.equation = sum_equation(out.terms, sum);
  x.e.steps = {pre, act, out};
}

// Softmax along the query's row (keys axis) or the key's column (queries axis).
void explain_softmax(const Context& x, StageKind logits_id, bool use_mask) {
  const int h = x.st.head;
  const bool rows = x.t.softmax_axis == SoftmaxAxis::Keys;
  const StageValues& logits = x.in(logits_id, h);
  const SoftmaxStats& st = x.t.softmax.at((size_t)h);
  const int line = rows ? x.r : x.c, pos = rows ? x.c : x.r;
  const int n = rows ? (int)logits.cols() : (int)logits.rows();
  const char* line_name = rows ? "row" : "column";
  auto at = [&](int k) { return rows ? logits(line, k) : logits(k, line); };
  auto label = [&](int k) { return rows ? cell(logits_id, line, k) : cell(logits_id, k, line); };
  auto blocked = [&](int k) { return use_mask && (rows ? x.st.is_blocked(line, k) : x.st.is_blocked(k, line)); };
  x.e.formula = std::string("A[i,j] = exp(l[i,j] − max) / Σ exp(l − max), over the ") + line_name;
  if (rows) x.source(logits_id, h, line, line + 1, 0, n);
  else x.source(logits_id, h, 0, n, line, line + 1);

  bool any = false;
  for (int k = 0; k < n; ++k) any |= !blocked(k);
  if (!any) {
    x.e.note = std::string("every entry of this ") + line_name +
               " is masked, so there is nothing to attend to: its weights are defined as 0 (not 0/0 = NaN)";
    x.e.steps.push_back({"fully masked", {}, "weight = 0", 0});
    return;
  }
  const double m = st.max(line), sum = st.sum(line);
  ExplainStep mx{std::string(line_name) + " max", {}, "", m};
  for (int k = 0; k < n; ++k)
    if (!blocked(k)) mx.terms.push_back({label(k), at(k), "", "", 0, at(k)});
  mx.equation = "max = " + format_number(m) + " (subtracted so exp never overflows)";
  const double e = rows ? softmax_exp(x.t, h, line, pos) : softmax_exp(x.t, h, pos, line);
  ExplainStep ex{"exp", {}, "", e};
  if (blocked(pos)) {
    ex.equation = "exp(−∞) = 0";
    x.e.note = "this key is blocked by the mask, so its weight is exactly 0";
  } else {
    ex.terms.push_back({label(pos) + " − max", at(pos) - m, "exp", "", 0, e});
    ex.equation = "exp(" + format_number(at(pos)) + " − " + format_number(m) + ") = " + format_number(e);
  }
  ExplainStep sm{std::string(line_name) + " sum", {}, "", sum};
  for (int k = 0; k < n; ++k) {
    if (blocked(k)) continue;
    const double ek = rows ? softmax_exp(x.t, h, line, k) : softmax_exp(x.t, h, k, line);
    sm.terms.push_back({"exp(" + label(k) + " − max)", ek, "", "", 0, ek});
  }
  sm.equation = "Σ = " + sum_equation(sm.terms, sum);
  ExplainStep q{"quotient", {{"exp", e, "÷", "sum", sum, e / sum}}, format_number(e) + " ÷ " +
                format_number(sum) + " = " + format_number(e / sum), e / sum};
  x.e.steps = {mx, ex, sm, q};
}

void explain_weights_after(const Context& x) {
  const int h = x.st.head;
  const double p = x.in(StageKind::softmax, h)(x.r, x.c);
  const bool blocked = x.st.is_blocked(x.r, x.c);
  x.e.formula = "A[i,j] = softmax[i,j] × keep[i,j] (zeroed after softmax, not renormalised)";
  x.e.steps.push_back({"zero blocked entries",
                       {{cell(StageKind::softmax, x.r, x.c), p, "×", "keep", blocked ? 0.0 : 1.0, blocked ? 0.0 : p}},
                       format_number(p) + " × " + (blocked ? "0" : "1") + " = " + format_number(blocked ? 0 : p),
                       blocked ? 0 : p});
  x.source(StageKind::softmax, h, x.r, x.r + 1, x.c, x.c + 1);
  x.e.note = "the mistake: zeroing after softmax leaves the remaining weights summing to less than 1; "
             "blocking with −∞ before softmax renormalises them";
}

void explain_scaled(const Context& x) {
  const int h = x.st.head;
  const double s = x.in(StageKind::scores, h)(x.r, x.c);
  const Dims& d = x.t.dims;
  x.source(StageKind::scores, h, x.r, x.r + 1, x.c, x.c + 1);
  switch (x.s.scale) {
    case ScaleMode::SqrtDk: {
      const double root = std::sqrt((double)d.d_k);
      x.e.formula = "scaled[i,j] = S[i,j] / √d_k";
      x.e.steps.push_back({"divide by √d_k", {{cell(StageKind::scores, x.r, x.c), s, "÷", "√" + std::to_string(d.d_k), root, s / root}},
                           format_number(s) + " ÷ " + format_number(root) + " = " + format_number(s / root), s / root});
      break;
    }
    case ScaleMode::Temperature:
      x.e.formula = "scaled[i,j] = S[i,j] / τ";
      x.e.steps.push_back({"divide by τ", {{cell(StageKind::scores, x.r, x.c), s, "÷", "τ", x.s.temperature, s / x.s.temperature}},
                           format_number(s) + " ÷ " + format_number(x.s.temperature) + " = " +
                               format_number(s / x.s.temperature), s / x.s.temperature});
      break;
    case ScaleMode::None:
      x.e.formula = "scaled[i,j] = S[i,j] (scaling turned off)";
      x.e.steps.push_back({"no scaling", {}, format_number(s), s});
      break;
  }
  if (x.s.softcap > 0) {
    const double c = x.s.softcap;
    x.e.formula = "scaled[i,j] = c·tanh(" + x.e.formula.substr(x.e.formula.find("= ") + 2) + " / c), c = " + format_number(c);
    detail::explain_soft_cap(x.e, x.e.steps.back().result, c);
  }
}

void explain_masked(const Context& x) {
  const StageKind pre = x.st.inputs.at(0).id;
  const double l = x.in(pre, x.st.head)(x.r, x.c);
  x.source(pre, x.st.head, x.r, x.r + 1, x.c, x.c + 1);
  const bool blocked = x.st.is_blocked(x.r, x.c);
  if (x.t.mask_mode == MaskMode::AfterSoftmax) {
    x.e.formula = "masked[i,j] = logits[i,j] (this scenario applies the mask after softmax)";
    x.e.steps.push_back({"copy", {}, format_number(l), l});
    if (blocked) x.e.note = "blocked, but the mask is only applied after softmax";
    return;
  }
  x.e.formula = "masked[i,j] = −∞ if blocked, else logits[i,j]";
  if (blocked) {
    x.e.steps.push_back({"blocked", {}, format_number(l) + " → −∞", -std::numeric_limits<double>::infinity()});
    x.e.note = x.s.mask == MaskKind::Causal && x.c > x.r
                   ? "blocked: key " + std::to_string(x.c) + " comes after query " + std::to_string(x.r) + " (causal mask)"
                   : "blocked by the mask: exp(−∞) = 0, so this key gets no weight";
  } else {
    x.e.steps.push_back({"not blocked", {}, format_number(l), l});
  }
}

void explain_alibi(const Context& x) {
  const Dims& d = x.t.dims;
  const double m = detail::alibi_slope(x.st.head, d.n_heads), dist = std::abs(x.r - x.c);
  x.e.formula = "bias[i,j] = −m × |i − j|, m = 2^(−8(h+1)/heads)";
  x.e.steps.push_back({"distance penalty", {{"−m", -m, "×", "|i − j|", dist, -m * dist}},
                       "−" + format_number(m) + " × " + format_number(dist) + " = " + format_number(-m * dist), -m * dist});
}

void explain_sum_of_two(const Context& x, StageKind a, StageKind b, int head) {
  const double va = x.in(a, head)(x.r, x.c), vb = x.in(b, head)(x.r, x.c);
  x.e.formula = symbol(x.st.id) + "[i,j] = " + symbol(a) + "[i,j] + " + symbol(b) + "[i,j]";
  x.e.steps.push_back({"add", {{cell(a, x.r, x.c), va, "+", cell(b, x.r, x.c), vb, va + vb}},
                       format_number(va) + " + " + format_number(vb) + " = " + format_number(va + vb), va + vb});
  x.source(a, head, x.r, x.r + 1, x.c, x.c + 1);
  x.source(b, head, x.r, x.r + 1, x.c, x.c + 1);
}

void explain_pe(const Context& x) {
  const int d = (int)x.st.value.cols();
  const double angle = detail::sinusoidal_angle(x.r, x.c, d);
  const bool even = x.c % 2 == 0;
  x.e.formula = even ? "PE(pos, 2i) = sin(pos / 10000^(2i/d))" : "PE(pos, 2i+1) = cos(pos / 10000^(2i/d))";
  const double v = even ? std::sin(angle) : std::cos(angle);
  x.e.steps.push_back({"angle", {{"pos", (double)x.r, "÷", "10000^(" + std::to_string(x.c - x.c % 2) + "/" +
                                  std::to_string(d) + ")", std::pow(10000.0, (double)(x.c - x.c % 2) / d), angle}},
                       "angle = " + format_number(angle), angle});
  x.e.steps.push_back({even ? "sin" : "cos", {{"angle", angle, even ? "sin" : "cos", "", 0, v}},
                       format_number(v), v});
}

// A rotated query or key: its pair of dimensions turned by position × θ_i.
void explain_rope(const Context& x) {
  const StageRef from = x.st.inputs.at(0);
  const StageValues& in = x.in(from.id, from.head);
  const int d_k = static_cast<int>(in.cols());
  const std::optional<RopePair> p = rope_pair_of(x.s.rope, d_k, x.c);
  if (!p) {
    x.e.formula = "dimension " + std::to_string(x.c) + " is past the " + std::to_string(rope_dims(x.s.rope, d_k)) +
                  " rotated ones (partial rotary): copied unchanged";
    x.e.steps.push_back({"copy", {{cell(from.id, x.r, x.c), x.e.value, "", "", 0, x.e.value}},
                         format_number(x.e.value), x.e.value});
    x.source(from.id, from.head, x.r, x.r + 1, x.c, x.c + 1);
    return;
  }
  const int rotated = rope_dims(x.s.rope, d_k), pos = x.s.rope.offset + x.r;
  const double theta = rope_theta(x.s.rope, rotated, p->pair), angle = pos * theta;
  const double c = std::cos(angle), sn = std::sin(angle);
  const double xa = in(x.r, p->a), xb = in(x.r, p->b);
  const std::string sym = symbol(from.id);
  x.e.formula = p->is_a ? "x'_a = x_a·cos(mθ_i) − x_b·sin(mθ_i)" : "x'_b = x_b·cos(mθ_i) + x_a·sin(mθ_i)";
  x.e.note = "dimensions " + std::to_string(p->a) + " and " + std::to_string(p->b) + " form pair " +
             std::to_string(p->pair) + " (" + (x.s.rope.pairing == RopePairing::Half ? "half" : "interleaved") +
             " pairing), turned together at position m = " + std::to_string(pos);
  if (x.s.rope.frequencies.empty())
    x.e.steps.push_back({"θ_i = base^(−2i/r)", {{"base", x.s.rope.base, "^", "−2·" + std::to_string(p->pair) + "/" +
                                                 std::to_string(rotated), -2.0 * p->pair / rotated, theta}},
                         "θ_" + std::to_string(p->pair) + " = " + format_number(theta, 6), theta});
  else  // a checkpoint's rope_scaling rescaled the ladder: the value is the model's own
    x.e.steps.push_back({"θ_i from the model's rope_scaling", {{"θ", theta, "", "", 0, theta}},
                         "θ_" + std::to_string(p->pair) + " = " + format_number(theta, 6), theta});
  x.e.steps.push_back({"angle = m × θ_i", {{"m", double(pos), "×", "θ", theta, angle}},
                       std::to_string(pos) + " × " + format_number(theta, 6) + " = " + format_number(angle), angle});
  x.e.steps.push_back({"cos and sin", {{"angle", angle, "cos", "", 0, c}, {"angle", angle, "sin", "", 0, sn}},
                       "cos = " + format_number(c) + ", sin = " + format_number(sn), c});
  const double v = p->is_a ? xa * c - xb * sn : xb * c + xa * sn;
  if (p->is_a)
    x.e.steps.push_back({"turn", {{cell(from.id, x.r, p->a), xa, "×", "cos", c, xa * c},
                                  {cell(from.id, x.r, p->b), xb, "×", "−sin", -sn, -xb * sn}},
                         format_number(xa * c) + (xb * sn > 0 ? " − " : " + ") + format_number(std::abs(xb * sn)) +
                             " = " + format_number(v), v});
  else
    x.e.steps.push_back({"turn", {{cell(from.id, x.r, p->b), xb, "×", "cos", c, xb * c},
                                  {cell(from.id, x.r, p->a), xa, "×", "sin", sn, xa * sn}},
                         format_number(xb * c) + (xa * sn < 0 ? " − " : " + ") + format_number(std::abs(xa * sn)) +
                             " = " + format_number(v), v});
  x.source(from.id, from.head, x.r, x.r + 1, p->a, p->a + 1);
  x.source(from.id, from.head, x.r, x.r + 1, p->b, p->b + 1);
}

// Stages that pass a matrix through unchanged (no projection, no W_O).
void explain_copy(const Context& x, const StageRef& from) {
  x.e.formula = x.st.formula + ": copied unchanged";
  x.e.steps.push_back({"copy", {{cell(from.id, x.r, x.c), x.e.value, "", "", 0, x.e.value}},
                       format_number(x.e.value), x.e.value});
  x.source(from.id, from.head, x.r, x.r + 1, x.c, x.c + 1);
}

void explain_input(const Context& x) {
  x.e.formula = symbol(x.st.id) + " is an input: edit it and everything downstream updates";
  x.e.steps.push_back({"value", {}, format_number(x.e.value), x.e.value});
}

}  // namespace

Explanation explain(const Trace& trace, const Scenario& scenario, const StageRef& ref, int row, int col) {
  const Stage* st = trace.find(ref);
  if (!st) {
    std::string known;
    for (const Stage& s : trace.stages) {
      const std::string name(name_of(s.id));
      if (known.find(" " + name + ",") == std::string::npos && known.rfind(name + ",", 0) != 0) known += name + ", ";
    }
    throw std::out_of_range("no stage \"" + std::string(name_of(ref.id)) + "\"" +
                            (ref.head >= 0 ? " for head " + std::to_string(ref.head) : std::string()) +
                            " (stages: " + known.substr(0, known.size() - 2) + ")");
  }
  if (row < 0 || row >= st->value.rows())
    throw std::out_of_range("row " + std::to_string(row) + " is out of range (stage \"" + std::string(name_of(ref.id)) + "\" has " +
                            std::to_string(st->value.rows()) + " rows)");
  if (col < 0 || col >= st->value.cols())
    throw std::out_of_range("col " + std::to_string(col) + " is out of range (stage \"" + std::string(name_of(ref.id)) + "\" has " +
                            std::to_string(st->value.cols()) + " columns)");
  Explanation e;
  e.stage = ref;
  e.row = row, e.col = col;
  e.value = st->value(row, col);
  e.formula = st->formula;
  const Context x{trace, scenario, *st, row, col, e};
  const int h = st->head;
  using K = StageKind;
  // A switch with no default: a stage added to the table and not explained
  // here is a compiler warning (an error under -Werror).
  switch (st->id) {
    case K::q:
    case K::k:
    case K::v: {
      const K w = st->id == K::q ? K::w_q : st->id == K::k ? K::w_k : K::w_v;
      if (trace.dims.projected) explain_product(x, st->inputs[0].id, -1, w, h);
      else explain_copy(x, st->inputs[0]);
      break;
    }
    case K::q_rope:
    case K::k_rope: explain_rope(x); break;
    case K::scores: explain_scores(x); break;
    case K::scaled: explain_scaled(x); break;
    case K::alibi: explain_alibi(x); break;
    case K::biased: explain_sum_of_two(x, K::scaled, K::alibi, h); break;
    case K::masked: explain_masked(x); break;
    case K::softmax: explain_softmax(x, K::masked, false); break;
    case K::weights:
      if (trace.mask_mode == MaskMode::AfterSoftmax) explain_weights_after(x);
      else explain_softmax(x, K::masked, true);
      break;
    case K::head_output:
      e.formula = "Z[i,c] = Σ_j A[i,j] × V[j,c]: the value rows weighted by query i's attention";
      explain_product(x, K::weights, h, st->inputs.at(1).id, st->inputs.at(1).head);
      break;
    case K::concat: {
      const int d_v = trace.dims.d_v, head = col / d_v, c = col % d_v;
      const double v = trace.find(K::head_output, head)->value(row, c);
      e.formula = "concat[i, h·d_v + c] = Z_h[i, c]";
      e.steps.push_back({"copy from head " + std::to_string(head), {{cell(K::head_output, row, c), v, "", "", 0, v}},
                         format_number(v), v});
      e.sources.push_back({{K::head_output, head}, row, row + 1, c, c + 1});
      break;
    }
    case K::output:
      if (scenario.w_o) explain_product(x, K::concat, -1, K::w_o, -1);
      else explain_copy(x, {K::concat, -1});
      if (scenario.output_bias.size() > 0) {
        e.formula = "output[i,c] = Σ_k concat[i,k] × W_O[k,c] + b_O[c]";
        explain_plus_bias(e, "b_O[" + std::to_string(col) + "]", scenario.output_bias(col));
      }
      break;
    case K::x:
      if (trace.find(K::x_raw)) explain_sum_of_two(x, K::x_raw, K::pe, -1);
      else explain_input(x);
      break;
    case K::context:
      if (trace.find(K::context_raw)) explain_sum_of_two(x, K::context_raw, K::pe_context, -1);
      else explain_input(x);
      break;
    case K::pe:
    case K::pe_context: explain_pe(x); break;
    // A decode step's stages live in a DecodeStep, never in a Trace:
    // explain_decode (attn/explain/decode_explain.hpp) explains them.
    case K::step_q:
    case K::step_k:
    case K::step_v:
    case K::k_cache:
    case K::v_cache:
    case K::step_scores:
    case K::step_logits:
    case K::step_weights:
    case K::step_head_output:
    case K::step_output:
      throw std::out_of_range("stage \"" + std::string(name_of(st->id)) +
                              "\" belongs to a KV-cache decode step; explain it with explain_decode");
    case K::x_raw:
    case K::context_raw:
    case K::w_q:
    case K::w_k:
    case K::w_v:
    case K::w_o: explain_input(x); break;
    // A trace holds no tiles (trace.find above refuses them first): they
    // are explained from their FlashAttention by explain_flash.
    case K::flash_scores:
    case K::flash_max_old:
    case K::flash_max:
    case K::flash_rescale:
    case K::flash_p:
    case K::flash_sum:
    case K::flash_o:
    case K::flash_block_output:
    case K::flash_output:
      throw std::out_of_range("stage \"" + to_string(st->id) + "\" is a FlashAttention tile; explain it with explain_flash");
  }
  return e;
}

}  // namespace attn
