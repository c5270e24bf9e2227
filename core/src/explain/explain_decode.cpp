// Explains a KV-cache decode step's cells (attn/decode_explain.hpp): the new
// rows' projections (and RoPE turns), the cache's rows (reused or new), the
// score row as dot products with cached keys, the logit row's scale, bias
// and mask, the softmax row, weights · V_cache and the output row.
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include "attn/decode_explain.hpp"
#include "attn/rope.hpp"
#include "compute/positional.hpp"
#include "explain/explain_sums.hpp"
#include "modern/decode_input.hpp"

namespace attn::detail::decode_explain {

using K = StageKind;

std::string at(K id, long r, long c) {
  return std::string(info_of(id).symbol) + "[" + std::to_string(r) + "," + std::to_string(c) + "]";
}

// Where cached row `row` came from, at step t.
std::string origin(int row, int t) {
  return row == t ? "computed this step" : "reused from the cache (computed at step " + std::to_string(row) + ")";
}

struct Cell {
  const DecodeStep& step;
  const Scenario& s;
  const Stage& st;
  int r, c;
  Explanation& e;
  const Mat& in(K id, int head) const {
    const Stage* p = step.find(id, head);
    if (!p) throw std::logic_error("decode step lacks stage " + std::string(name_of(id)));
    return p->value.stored();
  }
  void source(K id, int head, int r0, int r1, int c0, int c1) const {
    e.sources.push_back({{id, head}, r0, r1, c0, c1});
  }
  void single(const std::string& title, const std::string& label, double v) const {
    e.steps.push_back({title, {{label, v, "", "", 0, v}}, format_number(v), v});
  }
};

// The new row's q, k or v: x_t times a column of the weight, then (q and k
// with RoPE) turned by the new token's position.
void projection(const Cell& x) {
  const K weight = x.st.id == K::step_q ? K::w_q : x.st.id == K::step_k ? K::w_k : K::w_v;
  const bool projected = !x.s.heads.empty();
  const Mat* w = nullptr;
  if (projected) {
    const HeadWeights& hw = x.s.heads[static_cast<size_t>(x.st.head)];
    w = weight == K::w_q ? &hw.w_q : weight == K::w_k ? &hw.w_k : &hw.w_v;
  }
  const Eigen::RowVectorXd in = decode_input_row(x.s, x.step.t);
  const int width = static_cast<int>(x.st.value.cols());
  // Unrotated value of dimension `col`, explained as a sum when `show`.
  auto plain = [&](int col, bool show) {
    if (!w) return in(col);
    if (show)
      explain_sum_of_products(
          x.e, static_cast<int>(in.size()), [&](int i) { return in(i); },
          [&](int i) { return "x_t[" + std::to_string(i) + "]"; }, [&](int i) { return (*w)(i, col); },
          [&](int i) { return at(weight, i, col); });
    return (in * w->col(col))(0);
  };
  x.source(K::x, -1, x.step.t, x.step.t + 1, 0, static_cast<int>(in.size()));
  if (w) x.source(weight, x.st.head, 0, static_cast<int>(w->rows()), x.c, x.c + 1);
  const std::optional<RopePair> p =
      x.st.id != K::step_v && x.s.rope.on ? rope_pair_of(x.s.rope, width, x.c) : std::nullopt;
  if (!p) {
    x.e.formula = w ? "x_t · " + std::string(info_of(weight).symbol) + "[:," + std::to_string(x.c) + "]"
                    : "x_t[" + std::to_string(x.c) + "] (no projection)";
    if (w)
      plain(x.c, true);
    else
      x.single("copy", "x_t[" + std::to_string(x.c) + "]", in(x.c));
    if (x.st.id != K::step_v && x.s.rope.on) x.e.note = "a dimension past the rotated ones: not turned";
    return;
  }
  const double xa = plain(p->a, false), xb = plain(p->b, false);
  const int rotated = rope_dims(x.s.rope, width), pos = x.s.rope.offset + x.step.t;
  const double theta = rope_theta(x.s.rope, rotated, p->pair);
  const double angle = pos * theta, c = std::cos(angle), sn = std::sin(angle);
  x.e.formula = "RoPE(x_t · W, position m): pair " + std::to_string(p->pair) + " = dimensions " + std::to_string(p->a) +
                " and " + std::to_string(p->b);
  x.e.steps.push_back({"projected pair",
                       {{"u_a", xa, "", "", 0, xa}, {"u_b", xb, "", "", 0, xb}},
                       "u_a = " + format_number(xa) + ", u_b = " + format_number(xb),
                       xa});
  x.e.steps.push_back({"angle = m × θ_i",
                       {{"m", double(pos), "×", "θ", theta, angle}},
                       std::to_string(pos) + " × θ_" + std::to_string(p->pair) + " = " + format_number(angle),
                       angle});
  const double v = p->is_a ? xa * c - xb * sn : xb * c + xa * sn;
  // out_a = u_a·cos − u_b·sin, out_b = u_b·cos + u_a·sin: own term first, partner's second.
  const double own = p->is_a ? xa : xb, partner = p->is_a ? xb : xa, turn = p->is_a ? -sn : sn;
  std::vector<Term> terms{{p->is_a ? "u_a" : "u_b", own, "×", "cos", c, own * c},
                          {p->is_a ? "u_b" : "u_a", partner, "×", p->is_a ? "−sin" : "sin", turn, partner * turn}};
  x.e.steps.push_back({"turn", terms, sum_equation(terms, v), v});
  x.e.note = "turned at position m = " + std::to_string(pos) + (x.st.id == K::step_k ? ", then cached turned" : "");
}

void cache_row(const Cell& x) {
  const K from = x.st.id == K::k_cache ? K::step_k : K::step_v;
  const double v = x.in(x.st.id, x.st.head)(x.r, x.c);
  x.e.formula = x.st.formula;
  if (x.r == x.step.new_row) {
    x.single("appended this step", at(from, 0, x.c), v);
    x.source(from, x.st.head, 0, 1, x.c, x.c + 1);
    x.e.note = "row " + std::to_string(x.r) + " is new: " + origin(x.r, x.step.t);
  } else {
    x.single("reused", at(x.st.id, x.r, x.c), v);
    x.e.note = "row " + std::to_string(x.r) + " was " + origin(x.r, x.step.t) + "; nothing is recomputed for it";
  }
}

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
