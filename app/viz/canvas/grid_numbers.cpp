// Gathers what plan_cell_text needs from the trace, the animation frame and
// the view; the decision itself lives in the model layer (cell_text_plan).
#include "canvas/grid_numbers.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>

#include "canvas/grid_textures.hpp"

namespace viz {
namespace {

bool in_view(const GridBox& g, const ViewTransform& view, const Rect& clip) {
  return view.to_screen(g.cells).overlaps(clip);
}

bool can_show_numbers(const NumberInputs& in, const GridBox& g) {
  return in.show_values && g.stage >= 0 && g.stage < static_cast<int>(in.trace.stages.size());
}

// Final values of the range, then any value the running step shows instead.
std::vector<double> shown_values(const attn::Trace& trace, const Frame& f, int stage, const CellRange& range) {
  const attn::StageValues& m = trace.stages[static_cast<size_t>(stage)].value;
  std::vector<double> values;
  values.reserve(static_cast<size_t>(range.r1 - range.r0) * static_cast<size_t>(range.c1 - range.c0));
  for (int r = range.r0; r < range.r1; ++r)
    for (int c = range.c0; c < range.c1; ++c) values.push_back(m(r, c));
  if (stage != f.active_stage) return values;
  for (int r = range.r0; r < range.r1; ++r)
    for (int c = range.c0; c < range.c1; ++c) {
      const double d = displayed_value(trace, f, stage, r, c);
      if (d != m(r, c) && !(std::isnan(d) && std::isnan(m(r, c)))) values.push_back(d);
    }
  return values;
}

}  // namespace

TextWidth canvas_text_width(const FontSet& fonts) {
  return [&fonts](const std::string& text, double px) {
    const float size = static_cast<float>(px);
    return static_cast<double>(
        fonts.for_size(size)->CalcTextSizeA(size, FLT_MAX, 0, text.c_str(), text.c_str() + text.size()).x);
  };
}

CellSize screen_cell(const GridBox& g, const ViewTransform& view) { return {g.cell_w * view.zoom, g.cell_h * view.zoom}; }

CellRange cells_in(const GridBox& g, const ViewTransform& view, const Rect& clip) {
  const Rect cells = view.to_screen(g.cells);
  const CellSize cell = screen_cell(g, view);
  if (cell.w <= 0 || cell.h <= 0) return {};
  auto first = [](double from, double at, double size, int n) {
    return std::clamp(static_cast<int>(std::floor((at - from) / size)), 0, n);
  };
  auto end = [](double from, double at, double size, int n) {
    return std::clamp(static_cast<int>(std::ceil((at - from) / size)), 0, n);
  };
  return {first(cells.y0, clip.y0, cell.h, g.rows), end(cells.y0, clip.y1, cell.h, g.rows),
          first(cells.x0, clip.x0, cell.w, g.cols), end(cells.x0, clip.x1, cell.w, g.cols)};
}

CellTextPlan grid_number_plan(const NumberInputs& in, const GridBox& g, const Rect& clip) {
  const CellSize cell = screen_cell(g, in.view);
  const TextWidth width = canvas_text_width(in.fonts);
  if (!can_show_numbers(in, g) || !cell_fits_text(cell, width, in.min_px)) return {};
  const CellRange range = uses_texture(g) ? cells_in(g, in.view, clip) : CellRange{0, g.rows, 0, g.cols};
  if (range.empty()) return {};
  return plan_cell_text(shown_values(in.trace, in.frame, g.stage, range), cell, in.text_scale, width, in.min_px);
}

std::vector<CellTextPlan> plan_numbers(const NumberInputs& in, const PipelineLayout& layout, const Rect& clip) {
  std::vector<CellTextPlan> plans(layout.grids.size());
  for (size_t i = 0; i < layout.grids.size(); ++i)
    if (in_view(layout.grids[i], in.view, clip)) plans[i] = grid_number_plan(in, layout.grids[i], clip);
  return plans;
}

bool numbers_hidden_by_zoom(const NumberInputs& in, const PipelineLayout& layout, const std::vector<CellTextPlan>& plans,
                            const Rect& clip) {
  for (size_t i = 0; i < layout.grids.size() && i < plans.size(); ++i) {
    const GridBox& g = layout.grids[i];
    if (!plans[i].numbers && can_show_numbers(in, g) && in_view(g, in.view, clip)) return true;
  }
  return false;
}

}  // namespace viz
