// Compare view model: the difference of one stage between two traces.
#include "model/compare/compare.hpp"

#include "model/trace/screen_trace.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace model {
namespace {

const attn::Stage* find_stage(const attn::Trace& t, attn::StageKind kind, int head) {
  const int i = t.resolve(kind, head);  // per-model stages, or head 0 when it has fewer heads
  return i < 0 ? nullptr : &t.stages[static_cast<size_t>(i)];
}

std::string shape(const attn::Mat& m) { return std::to_string(m.rows()) + "×" + std::to_string(m.cols()); }

}  // namespace

attn::Mat stage_matrix(const attn::Stage& s) { return s.value.dense(); }

namespace {

bool blocked_in(const attn::BoolMat& m, Eigen::Index r, Eigen::Index c) { return m.size() && m(r, c); }

// Each block's mean over its open cells; `blocked` marks blocks with none.
attn::Mat block_means(const attn::Mat& m, const attn::BoolMat& cell_blocked, int k, attn::BoolMat& blocked) {
  const Eigen::Index rows = (m.rows() + k - 1) / k, cols = (m.cols() + k - 1) / k;
  attn::Mat out = attn::Mat::Zero(rows, cols);
  blocked = attn::BoolMat::Constant(rows, cols, false);
  for (Eigen::Index br = 0; br < rows; ++br)
    for (Eigen::Index bc = 0; bc < cols; ++bc) {
      double sum = 0;
      int open = 0;
      for (Eigen::Index r = br * k; r < std::min(m.rows(), (br + 1) * k); ++r)
        for (Eigen::Index c = bc * k; c < std::min(m.cols(), (bc + 1) * k); ++c)
          if (!blocked_in(cell_blocked, r, c) && std::isfinite(m(r, c))) sum += m(r, c), ++open;
      if (open) out(br, bc) = sum / open;
      else blocked(br, bc) = true;
    }
  if (!blocked.any()) blocked.resize(0, 0);
  return out;
}

}  // namespace

ShownGrids shown_grids(const CompareGrids& g, int max_cells) {
  ShownGrids s;
  const Eigen::Index side = std::max({g.a.rows(), g.a.cols(), g.b.rows(), g.b.cols()});
  if (side <= max_cells) return s;
  const int k = static_cast<int>((side + max_cells - 1) / max_cells);
  s.block = k;
  s.a = block_means(g.a, g.blocked_a, k, s.blocked_a);
  s.b = block_means(g.b, g.blocked_b, k, s.blocked_b);
  if (g.diff.size() == 0) return s;
  const Eigen::Index rows = (g.diff.rows() + k - 1) / k, cols = (g.diff.cols() + k - 1) / k;
  s.diff = attn::Mat::Zero(rows, cols);
  s.blocked_diff = attn::BoolMat::Constant(rows, cols, false);
  for (Eigen::Index br = 0; br < rows; ++br)
    for (Eigen::Index bc = 0; bc < cols; ++bc) {
      bool any_open = false;
      double largest = 0;
      for (Eigen::Index r = br * k; r < std::min(g.diff.rows(), (br + 1) * k); ++r)
        for (Eigen::Index c = bc * k; c < std::min(g.diff.cols(), (bc + 1) * k); ++c) {
          if (blocked_in(g.blocked_a, r, c) || blocked_in(g.blocked_b, r, c)) continue;
          any_open = true;
          if (std::abs(g.diff(r, c)) > std::abs(largest)) largest = g.diff(r, c);
        }
      s.diff(br, bc) = largest;
      s.blocked_diff(br, bc) = !any_open;
    }
  if (!s.blocked_diff.any()) s.blocked_diff.resize(0, 0);
  return s;
}

CompareGrids compare_stage(const attn::Trace& a, const attn::Trace& b, attn::StageKind stage, int head,
                           int max_cells) {
  CompareGrids g;
  const attn::Stage* sa = find_stage(a, stage, head);
  const attn::Stage* sb = find_stage(b, stage, head);
  if (!sa || !sb) {
    g.problem = "stage \"" + attn::to_string(stage) + "\" is missing from " + (!sa && !sb ? "both sides" : !sa ? "A" : "B");
    if (sa) g.a = stage_matrix(*sa), g.title = sa->title, g.rows_a = sa->row_labels, g.cols_a = sa->col_labels;
    if (sb) g.b = stage_matrix(*sb), g.title = sb->title, g.rows_b = sb->row_labels, g.cols_b = sb->col_labels;
    g.shown = shown_grids(g, max_cells);
    return g;
  }
  g.title = sa->title;
  g.kind = sa->kind;
  g.a = stage_matrix(*sa);
  g.b = stage_matrix(*sb);
  g.blocked_a = sa->blocked.mat();
  g.blocked_b = sb->blocked.mat();
  g.rows_a = sa->row_labels, g.cols_a = sa->col_labels, g.rows_b = sb->row_labels, g.cols_b = sb->col_labels;
  if (g.a.rows() != g.b.rows() || g.a.cols() != g.b.cols()) {
    g.problem = "A has " + shape(g.a) + " " + sa->title + ", B has " + shape(g.b) + ": no difference grid";
    g.shown = shown_grids(g, max_cells);
    return g;
  }
  g.diff = attn::Mat::Zero(g.a.rows(), g.a.cols());
  // The same numbers added in another order (a swap of two tokens) differ
  // in their last bits: B − A would read -1e-16 where the lesson says zero.
  // A difference within rounding of the grid's largest value is 0.
  double largest = 0;
  for (const attn::Mat* m : {&g.a, &g.b})
    for (Eigen::Index i = 0; i < m->size(); ++i)
      if (std::isfinite(m->data()[i])) largest = std::max(largest, std::abs(m->data()[i]));
  const double rounding = kRoundingUlps * std::numeric_limits<double>::epsilon() * largest;
  for (Eigen::Index c = 0; c < g.a.cols(); ++c)
    for (Eigen::Index r = 0; r < g.a.rows(); ++r) {
      const bool blocked = (g.blocked_a.size() && g.blocked_a(r, c)) || (g.blocked_b.size() && g.blocked_b(r, c));
      const double x = g.a(r, c), y = g.b(r, c);
      if (blocked || !std::isfinite(x) || !std::isfinite(y)) continue;  // hatched, never NaN
      const double d = std::abs(y - x) <= rounding ? 0.0 : y - x;
      g.diff(r, c) = d;
      g.max_abs_diff = std::max(g.max_abs_diff, std::abs(d));
    }
  g.shown = shown_grids(g, max_cells);
  return g;
}

CompareGrids compare_for_view(const attn::Trace& a, const attn::Trace& b, attn::StageKind stage, int head,
                              const std::vector<attn::StageKind>& hidden, int max_cells) {
  CompareGrids g = compare_stage(a, b, stage, head, max_cells);
  if (std::find(hidden.begin(), hidden.end(), stage) == hidden.end()) return g;
  g.hidden = true;
  for (attn::Mat* m : {&g.a, &g.b, &g.diff}) m->setZero();
  g.blocked_a.resize(0, 0);
  g.blocked_b.resize(0, 0);
  g.max_abs_diff = 0;
  g.shown = shown_grids(g, max_cells);
  return g;
}

int shown_cells_for(double width) {
  if (width <= 0) return kShownCells;  // no canvas measured yet (a headless session)
  return std::clamp(static_cast<int>((width - 200) / 7), 16, kShownCells);
}

std::vector<attn::StageKind> comparable_stages(const attn::Trace& a, const attn::Trace& b) {
  std::vector<attn::StageKind> out;
  for (const attn::Stage& s : a.stages) {
    if (std::find(out.begin(), out.end(), s.id) != out.end()) continue;
    if (b.find(s.id, s.head) || b.find(s.id, -1) || b.find(s.id, 0)) out.push_back(s.id);
  }
  return out;
}

void CompareTraces::update(const CompareState& state) {
  if (state.revision == revision_) return;
  revision_ = state.revision;
  error_.clear();
  auto compute = [&](const std::optional<attn::Scenario>& s, const char* side) -> std::shared_ptr<const attn::Trace> {
    if (!s) return nullptr;
    try {
      return std::make_shared<const attn::Trace>(kept_for_screen(attn::compute_trace(*s), state.head));
    } catch (const std::exception& e) {
      error_ = std::string(side) + " cannot be computed: " + e.what();
      return nullptr;
    }
  };
  a_ = compute(state.a, "A");
  b_ = compute(state.b, "B");
}

}  // namespace model
