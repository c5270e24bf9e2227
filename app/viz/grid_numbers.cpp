// Gathers what plan_cell_text needs from the trace, the animation frame and
// the view; the decision itself lives in the model layer (cell_text_plan).
#include "grid_numbers.hpp"

#include <cfloat>
#include <cmath>

#include "grid_textures.hpp"

namespace viz {
namespace {

bool in_view(const GridBox& g, const ViewTransform& view, const Rect& clip) {
  return view.to_screen(g.cells).overlaps(clip);
}

bool can_show_numbers(const NumberInputs& in, const GridBox& g) {
  return in.show_values && !uses_texture(g) && g.stage >= 0 && g.stage < static_cast<int>(in.trace.stages.size());
}

// Final values, then any value the running step shows instead of its final one.
std::vector<double> shown_values(const attn::Trace& trace, const Frame& f, int stage) {
  const attn::Mat& m = trace.stages[static_cast<size_t>(stage)].value;
  std::vector<double> values(m.data(), m.data() + m.size());
  if (stage != f.active_stage) return values;
  for (Eigen::Index r = 0; r < m.rows(); ++r)
    for (Eigen::Index c = 0; c < m.cols(); ++c) {
      const double d = displayed_value(trace, f, stage, static_cast<int>(r), static_cast<int>(c));
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

CellSize screen_cell(const GridBox& g, const ViewTransform& view) { return {g.cell * view.zoom, g.cell * view.zoom}; }

CellTextPlan grid_number_plan(const NumberInputs& in, const GridBox& g) {
  if (!can_show_numbers(in, g)) return {};
  return plan_cell_text(shown_values(in.trace, in.frame, g.stage), screen_cell(g, in.view), in.text_scale,
                        canvas_text_width(in.fonts));
}

std::vector<CellTextPlan> plan_numbers(const NumberInputs& in, const PipelineLayout& layout, const Rect& clip) {
  std::vector<CellTextPlan> plans(layout.grids.size());
  for (size_t i = 0; i < layout.grids.size(); ++i)
    if (in_view(layout.grids[i], in.view, clip)) plans[i] = grid_number_plan(in, layout.grids[i]);
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
