// Explains a decode step's new rows and cache rows: x_t times a weight's
// column, the RoPE turn at the new token's position, and whether a cache row
// was appended this step or reused from an earlier one.
#include <cmath>
#include <vector>

#include "attn/compute/rope.hpp"
#include "attn/text/format_number.hpp"
#include "explain/decode_cell.hpp"
#include "explain/explain_sums.hpp"
#include "decode/decode_input.hpp"

namespace attn::detail::decode_explain {

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
  const std::string with_pe = x.s.positional == Positional::Sinusoidal
                                  ? "x_t is row t of X plus its sinusoidal encoding (PE row t)"
                                  : std::string();
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
    if (!with_pe.empty()) x.e.note += (x.e.note.empty() ? "" : "; ") + with_pe;
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
  x.e.note = "turned at position m = " + std::to_string(pos) + (x.st.id == K::step_k ? ", then cached turned" : "") +
             (with_pe.empty() ? "" : "; " + with_pe);
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

}  // namespace attn::detail::decode_explain
