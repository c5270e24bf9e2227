// Zoomed into a big grid, its row and column labels would scroll off with
// its edges; pinned, they stay at the view's left and top edges while the
// grid fills the view, so a cell far inside still says which token it is.
// Also "go to cell": the view that brings one cell of a grid to the middle,
// large enough to print its number. Pure geometry, tested without a window.
#pragma once

#include "model/layout/layout.hpp"
#include "model/layout/view_transform.hpp"

namespace model {

struct AxisPins {
  bool rows = false;  // row labels in a strip at the view's left edge
  bool cols = false;  // column labels in a strip at the view's top edge
  Rect row_strip, col_strip;  // screen pixels: the strips' rectangles
};

// `cells`: the grid's cells on screen; `view`: the area grids are drawn in;
// `row_band`, `col_band`: the room the grid's row labels take left of its
// cells, and its column labels above them (pixels). An axis is pinned when
// its labels would fall outside the view while the cells run on past the
// strip, so the strip never covers the grid's only visible cells.
AxisPins axis_pins(const Rect& cells, const Rect& view, double row_band, double col_band);

// The transform that centres cell (row, col) of `g` in `area`, zoomed so
// the cell's smaller side is `cell_px` pixels (never past max_zoom).
ViewTransform centred_on_cell(const GridBox& g, int row, int col, const Rect& area, double cell_px, double max_zoom);

}  // namespace model
