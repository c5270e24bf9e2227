// KvCacheFeatureView: the panel, once the trace is there.
#include "kv_cache/kv_cache_view.hpp"

#include "kv_cache/kv_cache_panel.hpp"

namespace viz {

void KvCacheFeatureView::draw(const PanelFrame& f) {
  if (!f.trace.has_trace()) return;
  draw_kv_cache_panel(feature_.model(), feature_.choice, f.state.view.colour, feature_.shown(), f.canvas_pos, f.canvas_size, f.probe,
                      f.as_slide);
}

}  // namespace viz
