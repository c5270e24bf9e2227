// FlashTilesFeatureView: the panel, once the trace is there.
#include "flash_tiles/flash_tiles_view.hpp"

#include "flash_tiles/flash_tiles_panel.hpp"

namespace viz {

void FlashTilesFeatureView::draw(const PanelFrame& f) {
  if (!f.trace.has_trace()) return;
  draw_flash_tiles_panel(feature_.model().view(), feature_.state, f.state.view.colour, feature_.shown(), f.canvas_pos, f.canvas_size,
                         f.probe, f.as_slide, f.steppers);
}

}  // namespace viz
