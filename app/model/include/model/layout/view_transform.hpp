// Canvas camera: maps world units (the pipeline layout) to screen pixels and
// back, with zoom about a point and fit-to-rectangle. Pure math, so hover and
// painting use the same numbers the renderer used, and tests can check them.
#pragma once

#include "model/layout/layout.hpp"

namespace model {

struct ViewTransform {
  double zoom = 1.0;   // screen pixels per world unit
  Vec2d offset;        // screen position of world (0, 0)

  static constexpr double kMinZoom = 1e-4;
  static constexpr double kMaxZoom = 64.0;  // small cells of large scenes can still be read

  Vec2d to_screen(Vec2d w) const { return {w.x * zoom + offset.x, w.y * zoom + offset.y}; }
  Vec2d to_world(Vec2d s) const { return {(s.x - offset.x) / zoom, (s.y - offset.y) / zoom}; }
  Rect to_screen(const Rect& r) const {
    const Vec2d a = to_screen(Vec2d{r.x0, r.y0}), b = to_screen(Vec2d{r.x1, r.y1});
    return {a.x, a.y, b.x, b.y};
  }

  // Zooms by `factor` keeping the world point under `screen_point` fixed,
  // never past max_zoom (see max_zoom_for).
  void zoom_at(Vec2d screen_point, double factor, double max_zoom = kMaxZoom);
  void pan(double dx, double dy) {
    offset.x += dx;
    offset.y += dy;
  }
};

// How far the wheel may zoom into this layout: kMaxZoom, or more when its
// smallest cells need it to reach 64 pixels, where they print their numbers
// (a 2048-token grid's cells are a fraction of a world unit).
double max_zoom_for(const PipelineLayout& layout);

// The transform that shows `world` centred inside `screen` with a margin in
// pixels on every side, never zooming in past max_zoom.
ViewTransform fit(const Rect& world, const Rect& screen, double margin = 16, double max_zoom = 2.0);

}  // namespace model
