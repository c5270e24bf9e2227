// Layout queries and choices that depend on the view: the cell size for a
// scene, how many bands fit a window best, and exact hit testing.
#include <algorithm>
#include <cmath>

#include "model/layout/arrow_routes.hpp"
#include "model/layout/layout.hpp"

namespace model {

double auto_cell_size(const attn::Trace& trace, double standard, double largest_grid, int long_axis_cells) {
  long long biggest = 1;
  for (const attn::Stage& s : trace.stages)
    for (const long long n : {static_cast<long long>(s.value.rows()), static_cast<long long>(s.value.cols())})
      if (drawn_cells(n, trace, long_axis_cells) == static_cast<double>(n)) biggest = std::max(biggest, n);
  // Up to 1.6× for scenes whose largest matrix has 5 or fewer rows/columns
  // (1.5× for 6, none from 9): their grids are small next to the text bands.
  const double boost = std::clamp(9.0 / static_cast<double>(biggest), 1.0, 1.6);
  return std::min(standard * boost, largest_grid / static_cast<double>(biggest));
}

PipelineLayout layout_for_view(const attn::Trace& trace, LayoutOptions o, double view_w, double view_h,
                               int max_bands) {
  o.wrap_width = 0;
  o.bands = 1;
  o.side_by_side = false;
  PipelineLayout best = place_grids(trace, o);
  auto scale = [&](const PipelineLayout& l) {
    return std::min(view_w / std::max(l.bounds.width(), 1.0), view_h / std::max(l.bounds.height(), 1.0));
  };
  double best_scale = scale(best);
  // Side by side only pays with several head lanes; one lane stays as the
  // articles draw it, W_Q over W_K over W_V.
  const bool lanes = std::any_of(best.grids.begin(), best.grids.end(), [](const GridBox& g) { return g.lane > 0; });
  auto consider = [&](const LayoutOptions& options) {
    PipelineLayout l = place_grids(trace, options);
    if (l.bands > max_bands) return;
    const double sc = scale(l);
    if (sc > best_scale * 1.05) {
      best = std::move(l);
      best_scale = sc;
    }
  };
  for (const bool side_by_side : {false, true}) {
    if (side_by_side && !lanes) break;
    o.side_by_side = side_by_side;
    o.wrap_width = 0;
    for (int bands = side_by_side ? 1 : 2; bands <= max_bands; ++bands) {
      o.bands = bands;
      consider(o);
    }
    // Bands of even width are not always best: head lanes are tall and the
    // shared tail (concat, W_O, output) short, so also try breaking after
    // each column of the unwrapped layout.
    o.bands = 1;
    const PipelineLayout one = place_grids(trace, o);
    std::vector<double> edges;
    for (const GridBox& g : one.grids) edges.push_back(g.box.x1);
    std::sort(edges.begin(), edges.end());
    edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
    for (double edge : edges) {
      o.wrap_width = edge + 0.5;
      if (o.wrap_width < one.bounds.width()) consider(o);
    }
  }
  route_arrows(trace, o, best);  // only the winner: routing costs more than placing
  return best;
}

const GridBox* PipelineLayout::find(int stage) const {
  for (const GridBox& g : grids)
    if (g.stage == stage) return &g;
  return nullptr;
}

std::optional<CellHit> PipelineLayout::hit(Vec2d p) const {
  for (size_t i = 0; i < grids.size(); ++i) {
    const GridBox& g = grids[i];
    if (!g.cells.contains(p) || g.cell_w <= 0 || g.cell_h <= 0) continue;
    int c = std::clamp(static_cast<int>(std::floor((p.x - g.cells.x0) / g.cell_w)), 0, g.cols - 1);
    int r = std::clamp(static_cast<int>(std::floor((p.y - g.cells.y0) / g.cell_h)), 0, g.rows - 1);
    // The division can round across a boundary; the boundaries themselves decide.
    while (c > 0 && p.x < g.col_x(c)) --c;
    while (c < g.cols - 1 && p.x >= g.col_x(c + 1)) ++c;
    while (r > 0 && p.y < g.row_y(r)) --r;
    while (r < g.rows - 1 && p.y >= g.row_y(r + 1)) ++r;
    return CellHit{static_cast<int>(i), g.stage, r, c};
  }
  return std::nullopt;
}

}  // namespace model
