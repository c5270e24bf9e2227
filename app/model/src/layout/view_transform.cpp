// Canvas camera math: zoom about the cursor and fit-to-window.
#include "model/layout/view_transform.hpp"

#include <algorithm>

namespace model {

void ViewTransform::zoom_at(Vec2d p, double factor, double max_zoom) {
  const Vec2d w = to_world(p);
  zoom = std::clamp(zoom * factor, kMinZoom, std::max(zoom, max_zoom));  // never jumps out when already past it
  offset = {p.x - w.x * zoom, p.y - w.y * zoom};
}

double max_zoom_for(const PipelineLayout& layout) {
  double smallest = 0;
  for (const GridBox& g : layout.grids)
    if (g.min_cell() > 0 && (smallest == 0 || g.min_cell() < smallest)) smallest = g.min_cell();
  return smallest > 0 ? std::max(ViewTransform::kMaxZoom, 64.0 / smallest) : ViewTransform::kMaxZoom;
}

ViewTransform fit(const Rect& world, const Rect& screen, double margin, double max_zoom) {
  ViewTransform t;
  const double avail_w = std::max(1.0, screen.width() - 2 * margin);
  const double avail_h = std::max(1.0, screen.height() - 2 * margin);
  const double ww = std::max(world.width(), 1e-9), wh = std::max(world.height(), 1e-9);
  t.zoom = std::clamp(std::min(avail_w / ww, avail_h / wh), ViewTransform::kMinZoom, max_zoom);
  const double cx = (world.x0 + world.x1) / 2, cy = (world.y0 + world.y1) / 2;
  t.offset = {(screen.x0 + screen.x1) / 2 - cx * t.zoom, (screen.y0 + screen.y1) / 2 - cy * t.zoom};
  return t;
}

}  // namespace model
