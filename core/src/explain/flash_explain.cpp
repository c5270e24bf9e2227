// Explanations of FlashAttention's tile cells (attn/explain/flash_explain.hpp). Each
// redoes the cell's arithmetic from the numbers it names (the tile's own
// grids, the tile before it, and the trace's Q, K and V), so the result is
// an independent retelling that a test can hold against the stored cell.
#include "attn/explain/flash_explain.hpp"
#include "attn/text/format_number.hpp"
#include "explain/explain_sums.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace attn {
// Named, so that its helpers' names cannot meet explain.cpp's in a unity build.
namespace flash_cells {
namespace {

std::string symbol(StageKind id) { return std::string(info_of(id).symbol); }
std::string cell(StageKind id, long r, long c) { return symbol(id) + "[" + std::to_string(r) + "," + std::to_string(c) + "]"; }
std::string row_cell(StageKind id, long r) { return symbol(id) + "[" + std::to_string(r) + "]"; }

const Stage& grid_of(const FlashTile& t, StageKind kind) {
  switch (kind) {
    case StageKind::flash_scores: return t.scores;
    case StageKind::flash_max_old: return t.max_old;
    case StageKind::flash_max: return t.max_new;
    case StageKind::flash_rescale: return t.rescale;
    case StageKind::flash_p: return t.p;
    case StageKind::flash_sum: return t.sum;
    default: return t.o;
  }
}

struct Cell {
  const FlashAttention& fa;
  const Trace& trace;
  const FlashTile* tile;  // null for the outputs
  int r, c;               // inside the grid
  Explanation& e;

  double at(StageKind kind, int r_, int c_ = 0) const { return grid_of(*tile, kind).value(r_, c_); }
  // The tile before this one in the row of tiles (null at j = 0).
  const FlashTile* before() const { return tile->j == 0 ? nullptr : &fa.tile(tile->i, tile->j - 1); }
  void step(std::string title, std::vector<Term> terms, std::string equation, double result) const {
    e.steps.push_back({std::move(title), std::move(terms), std::move(equation), result});
  }
};

void explain_scores(const Cell& x) {
  const int qi = x.tile->row0 + x.r, kj = x.tile->col0 + x.c;
  if (x.tile->scores.is_blocked(x.r, x.c)) {
    x.e.note = "blocked by the mask: −∞, so exp gives 0 and key " + std::to_string(kj) + " adds nothing";
    x.step("blocked", {}, "S_ij = −∞", -std::numeric_limits<double>::infinity());
    return;
  }
  const Mat q = x.trace.find(x.fa.q)->value.row(qi), k = x.trace.find(x.fa.k)->value.row(kj);
  std::vector<Term> products;
  double dot = 0;
  for (Eigen::Index t = 0; t < q.cols(); ++t) {
    const double p = q(0, t) * k(0, t);
    products.push_back({"Q[" + std::to_string(qi) + "," + std::to_string(t) + "]", q(0, t), "×",
                        "K[" + std::to_string(kj) + "," + std::to_string(t) + "]", k(0, t), p});
    dot += p;
  }
  x.step("Q_i · K_j", products, std::to_string(q.cols()) + " products summed = " + format_number(dot), dot);
  const Derivation& scaled = x.trace.find(StageKind::scaled, x.fa.head)->value.derivation();
  const double divisor = scaled.divisor;
  double logit = dot / divisor;
  x.step("÷ d", {{"q·k", dot, "÷", "d", divisor, logit}}, format_number(dot) + " ÷ " + format_number(divisor) + " = " + format_number(logit), logit);
  if (scaled.cap > 0) {
    logit = detail::explain_soft_cap(x.e, logit, scaled.cap);
  }
  if (const Stage* alibi = x.trace.find(StageKind::alibi, x.fa.head)) {
    const double b = alibi->value(qi, kj);
    const double sum = logit + b;
    x.step("+ ALiBi bias", {{"scaled", logit, "+", cell(StageKind::alibi, qi, kj), b, sum}},
           format_number(logit) + " + " + format_number(b) + " = " + format_number(sum), sum);
  }
  x.e.sources.push_back({x.fa.q, qi, qi + 1, 0, static_cast<int>(q.cols())});
  x.e.sources.push_back({x.fa.k, kj, kj + 1, 0, static_cast<int>(k.cols())});
}

void explain_max_old(const Cell& x) {
  if (const FlashTile* b = x.before()) {
    const double m = b->max_new.value(x.r, 0);
    x.step("from the tile before", {{row_cell(StageKind::flash_max, x.r) + " of tile (" + std::to_string(b->i) + ", " + std::to_string(b->j) + ")", m, "", "", 0, m}},
           "m_old = " + format_number(m), m);
  } else {
    x.e.note = "the first key block: no key seen yet";
    x.step("start", {}, "m_old = −∞", -std::numeric_limits<double>::infinity());
  }
}

void explain_max(const Cell& x) {
  double m = x.at(StageKind::flash_max_old, x.r);
  std::vector<Term> terms{{"m_old", m, "", "", 0, m}};
  for (int c = 0; c < x.tile->cols; ++c) {
    const double s = x.at(StageKind::flash_scores, x.r, c);
    m = std::max(m, s);
    terms.push_back({cell(StageKind::flash_scores, x.r, c), s, "", "", 0, s});
  }
  x.step("max of m_old and the tile's row", terms, "the largest: m_new = " + format_number(m), m);
}

void explain_rescale(const Cell& x) {
  const double m_old = x.at(StageKind::flash_max_old, x.r), m_new = x.at(StageKind::flash_max, x.r);
  if (m_new == -std::numeric_limits<double>::infinity()) {
    x.e.note = "every key so far is blocked: m is still −∞, there is nothing to rescale";
    x.step("nothing to rescale", {}, "α = 1", 1.0);
    return;
  }
  const double diff = m_old - m_new, a = std::exp(diff);
  x.step("m_old − m_new", {{"m_old", m_old, "−", "m_new", m_new, diff}}, format_number(m_old) + " − " + format_number(m_new) + " = " + format_number(diff), diff);
  x.step("exp", {{"m_old − m_new", diff, "exp", "", 0, a}}, "exp(" + format_number(diff) + ") = " + format_number(a), a);
  if (m_old == -std::numeric_limits<double>::infinity()) x.e.note = "the first open key: ℓ and O were 0, α = 0 keeps them so";
}

void explain_p(const Cell& x) {
  const double s = x.at(StageKind::flash_scores, x.r, x.c), m = x.at(StageKind::flash_max, x.r);
  if (m == -std::numeric_limits<double>::infinity()) {
    x.e.note = "every key so far is blocked: P is 0";
    x.step("nothing open yet", {}, "P = 0", 0.0);
    return;
  }
  const double diff = s - m, p = std::exp(diff);
  x.step("S_ij − m_new", {{cell(StageKind::flash_scores, x.r, x.c), s, "−", "m_new", m, diff}},
         format_number(s) + " − " + format_number(m) + " = " + format_number(diff), diff);
  x.step("exp", {{"S − m_new", diff, "exp", "", 0, p}}, "exp(" + format_number(diff) + ") = " + format_number(p), p);
}

// α · old + new part: the running sum's and the partial output's last step.
void rescaled_sum(const Cell& x, const std::string& old_label, double old_value, const std::string& part_title,
                  std::vector<Term> part_terms) {
  const double a = x.at(StageKind::flash_rescale, x.r);
  double part = 0;
  for (const Term& t : part_terms) part += t.value;
  const double kept = a * old_value, total = kept + part;
  x.step("α × " + old_label, {{"α", a, "×", old_label, old_value, kept}}, format_number(a) + " × " + format_number(old_value) + " = " + format_number(kept), kept);
  x.step(part_title, std::move(part_terms), part_title + " = " + format_number(part), part);
  x.step("sum", {{"α × " + old_label, kept, "+", part_title, part, total}}, format_number(kept) + " + " + format_number(part) + " = " + format_number(total), total);
}

void explain_sum(const Cell& x) {
  const FlashTile* b = x.before();
  std::vector<Term> terms;
  for (int c = 0; c < x.tile->cols; ++c) {
    const double p = x.at(StageKind::flash_p, x.r, c);
    terms.push_back({cell(StageKind::flash_p, x.r, c), p, "", "", 0, p});
  }
  rescaled_sum(x, "ℓ_old", b ? b->sum.value(x.r, 0) : 0.0, "row sum of P", std::move(terms));
}

void explain_o(const Cell& x) {
  const FlashTile* b = x.before();
  const StageValues& v = x.trace.find(x.fa.v)->value;
  std::vector<Term> terms;
  for (int c = 0; c < x.tile->cols; ++c) {
    const int key = x.tile->col0 + c;
    const double p = x.at(StageKind::flash_p, x.r, c), vv = v(key, x.c);
    terms.push_back({cell(StageKind::flash_p, x.r, c), p, "×", "V[" + std::to_string(key) + "," + std::to_string(x.c) + "]", vv, p * vv});
  }
  rescaled_sum(x, "O_old", b ? b->o.value(x.r, x.c) : 0.0, "P · V_j", std::move(terms));
  x.e.sources.push_back({x.fa.v, x.tile->col0, x.tile->col0 + x.tile->cols, x.c, x.c + 1});
}

void explain_block_output(const Cell& x, const FlashBlock& b) {
  const FlashTile& last = b.tiles.back();
  const double o = last.o.value(x.r, x.c), l = last.sum.value(x.r, 0);
  if (l == 0) {
    x.e.note = "every key of this query is blocked: its output is 0, as in the plain softmax";
    x.step("all blocked", {}, "ℓ = 0, so the row is 0", 0.0);
    return;
  }
  const double z = o / l;
  x.step("O_i ÷ ℓ", {{cell(StageKind::flash_o, x.r, x.c), o, "÷", row_cell(StageKind::flash_sum, x.r), l, z}},
         format_number(o) + " ÷ " + format_number(l) + " = " + format_number(z), z);
}

void check_cell(const Stage& s, int r, int c) {
  if (r < 0 || r >= s.value.rows() || c < 0 || c >= s.value.cols())
    throw std::out_of_range("cell [" + std::to_string(r) + "][" + std::to_string(c) + "] is out of range (" + s.title + " is " +
                            std::to_string(s.value.rows()) + "×" + std::to_string(s.value.cols()) + ")");
}

}  // namespace

Explanation explain(const FlashAttention& fa, const Trace& trace, const FlashCell& at) {
  using K = StageKind;
  if (role_of(at.stage) != StageRole::FlashTile)
    throw std::out_of_range("stage \"" + to_string(at.stage) + "\" is not one of FlashAttention's tiles");
  Explanation e;
  e.stage = {at.stage, fa.head};
  e.row = at.row, e.col = at.col;
  e.formula = std::string(info_of(at.stage).formula);
  if (at.stage == K::flash_output) {
    check_cell(fa.output, at.row, at.col);
    const int i = at.row / fa.block_rows, r = at.row % fa.block_rows;
    const double v = fa.blocks.at(static_cast<size_t>(i)).output.value(r, at.col);
    e.value = fa.output.value(at.row, at.col);
    e.steps.push_back({"from query block " + std::to_string(i), {{cell(K::flash_block_output, r, at.col), v, "", "", 0, v}}, format_number(v), v});
    return e;
  }
  if (at.stage == K::flash_block_output) {
    if (at.i < 0 || at.i >= fa.query_blocks())
      throw std::out_of_range("query block " + std::to_string(at.i) + " does not exist (" + std::to_string(fa.query_blocks()) + " blocks)");
    const FlashBlock& b = fa.blocks[static_cast<size_t>(at.i)];
    check_cell(b.output, at.row, at.col);
    e.value = b.output.value(at.row, at.col);
    explain_block_output({fa, trace, &b.tiles.back(), at.row, at.col, e}, b);
    return e;
  }
  const FlashTile& t = fa.tile(at.i, at.j);
  const Stage& g = grid_of(t, at.stage);
  check_cell(g, at.row, at.col);
  e.value = g.value(at.row, at.col);
  e.formula += " (tile i = " + std::to_string(at.i) + ", j = " + std::to_string(at.j) + ")";
  const Cell x{fa, trace, &t, at.row, at.col, e};
  switch (at.stage) {
    case K::flash_scores: explain_scores(x); break;
    case K::flash_max_old: explain_max_old(x); break;
    case K::flash_max: explain_max(x); break;
    case K::flash_rescale: explain_rescale(x); break;
    case K::flash_p: explain_p(x); break;
    case K::flash_sum: explain_sum(x); break;
    default: explain_o(x); break;
  }
  return e;
}

}  // namespace flash_cells

Explanation explain_flash(const FlashAttention& fa, const Trace& trace, const FlashCell& cell) {
  return flash_cells::explain(fa, trace, cell);
}

}  // namespace attn
