// Pinned axis labels and the view onto one cell (axis_pins.hpp).
#include "model/layout/axis_pins.hpp"

#include <algorithm>

namespace model {

AxisPins axis_pins(const Rect& cells, const Rect& view, double row_band, double col_band) {
  AxisPins p;
  // The part of the cells in view, vertically and horizontally.
  const double y0 = std::max(cells.y0, view.y0), y1 = std::min(cells.y1, view.y1);
  const double x0 = std::max(cells.x0, view.x0), x1 = std::min(cells.x1, view.x1);
  if (y1 <= y0 || x1 <= x0) return p;  // the grid is out of view
  p.rows = cells.x0 - row_band < view.x0 && cells.x1 > view.x0 + 2 * row_band;
  p.cols = cells.y0 - col_band < view.y0 && cells.y1 > view.y0 + 2 * col_band;
  // With both pinned, the column strip runs over the corner too (no cell
  // shows there) and the row strip starts under it.
  if (p.rows) p.row_strip = {view.x0, p.cols ? view.y0 + col_band : y0, view.x0 + row_band, y1};
  if (p.cols) p.col_strip = {p.rows ? view.x0 : x0, view.y0, x1, view.y0 + col_band};
  return p;
}

ViewTransform centred_on_cell(const GridBox& g, int row, int col, const Rect& area, double cell_px, double max_zoom) {
  ViewTransform t;
  const double cell = std::max(g.min_cell(), 1e-9);
  t.zoom = std::clamp(cell_px / cell, ViewTransform::kMinZoom, std::max(max_zoom, ViewTransform::kMinZoom));
  const Vec2d c = g.cell_center(std::clamp(row, 0, std::max(g.rows - 1, 0)), std::clamp(col, 0, std::max(g.cols - 1, 0)));
  t.offset = {(area.x0 + area.x1) / 2 - c.x * t.zoom, (area.y0 + area.y1) / 2 - c.y * t.zoom};
  return t;
}

}  // namespace model
