// The explore panels drawn from their features.
#include "explore/explore_views.hpp"

#include "explore/hull_panel.hpp"
#include "explore/why_scale_panel.hpp"

namespace viz {

void WhyScaleFeatureView::draw(const PanelFrame& f) {
  model::WhyScaleModel& m = feature_.model;
  draw_why_scale_panel(m.inputs, m.result(), feature_.shown(), f.canvas_pos, f.canvas_size, f.probe, f.state.view.colour.probability_map,
                       f.as_slide);
}

void HullFeatureView::draw(const PanelFrame& f) {
  if (!f.trace.has_trace()) return;
  draw_hull_panel(feature_.model.view(), feature_.model, f.trace.trace().dims.n_heads, f.state.view.head >= 0, feature_.shown(),
                  f.canvas_pos, f.canvas_size, f.probe, f.as_slide);
}

}  // namespace viz
