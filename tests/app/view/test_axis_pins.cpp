// Pinned axis labels and "go to cell": an axis is pinned only when its
// labels would leave the view while the cells run on past the strip; the
// strips sit at the view's edges and share the corner; centring a cell puts
// its centre on the view's centre at the size asked for.
#include <doctest/doctest.h>

#include <cmath>

#include "model/layout/axis_pins.hpp"

using model::Rect;

TEST_CASE("axis pins: none when the grid and its labels are in view, both when zoomed far inside") {
  const Rect view{100, 50, 900, 650};
  // Fitted: labels (40 px left, 20 px above) in view.
  model::AxisPins p = model::axis_pins({200, 150, 700, 550}, view, 40, 20);
  CHECK_FALSE(p.rows);
  CHECK_FALSE(p.cols);
  // Zoomed in: the cells run past every edge.
  p = model::axis_pins({-5000, -3000, 9000, 8000}, view, 40, 20);
  REQUIRE(p.rows);
  REQUIRE(p.cols);
  CHECK(p.row_strip.x0 == view.x0);
  CHECK(p.row_strip.x1 == view.x0 + 40);
  CHECK(p.row_strip.y0 == view.y0 + 20);  // under the column strip
  CHECK(p.row_strip.y1 == view.y1);
  CHECK(p.col_strip.x0 == view.x0);  // over the corner
  CHECK(p.col_strip.y1 == view.y0 + 20);
  CHECK(p.col_strip.x1 == view.x1);
}

TEST_CASE("axis pins: one axis at a time, never over the only visible cells, none out of view") {
  const Rect view{0, 0, 800, 600};
  // Scrolled right past the row labels only: rows pinned, the strip spans the visible cells' rows.
  model::AxisPins p = model::axis_pins({-300, 100, 500, 400}, view, 40, 20);
  CHECK(p.rows);
  CHECK_FALSE(p.cols);
  CHECK(p.row_strip.y0 == 100);
  CHECK(p.row_strip.y1 == 400);
  // Scrolled down past the column labels only.
  p = model::axis_pins({100, -200, 500, 400}, view, 40, 20);
  CHECK_FALSE(p.rows);
  CHECK(p.cols);
  CHECK(p.col_strip.x0 == 100);
  CHECK(p.col_strip.x1 == 500);
  // A sliver of grid at the left edge (narrower than two strips): not pinned over it.
  p = model::axis_pins({-300, 100, 60, 400}, view, 40, 20);
  CHECK_FALSE(p.rows);
  // Out of view.
  p = model::axis_pins({900, 100, 1500, 400}, view, 40, 20);
  CHECK_FALSE(p.rows);
  CHECK_FALSE(p.cols);
}

TEST_CASE("go to cell: the cell's centre lands on the view's centre at the cell size asked for") {
  model::GridBox g;
  g.rows = 1024;
  g.cols = 1024;
  g.cell_w = g.cell_h = 0.25;
  g.cells = {10, 20, 10 + 1024 * 0.25, 20 + 1024 * 0.25};
  const Rect area{289, 183, 718, 648};
  const model::ViewTransform t = model::centred_on_cell(g, 700, 650, area, 64, 1000);
  const Rect cell = t.to_screen(g.cell_rect(700, 650));
  CHECK(std::abs((cell.x0 + cell.x1) / 2 - (area.x0 + area.x1) / 2) < 1e-9);
  CHECK(std::abs((cell.y0 + cell.y1) / 2 - (area.y0 + area.y1) / 2) < 1e-9);
  CHECK(cell.x1 - cell.x0 == doctest::Approx(64));
  // Never past max_zoom; rows and columns out of range are clamped to the grid.
  const model::ViewTransform capped = model::centred_on_cell(g, 5000, -3, area, 64, 100);
  CHECK(capped.zoom == 100);
  const Rect last = capped.to_screen(g.cell_rect(1023, 0));
  CHECK(std::abs((last.x0 + last.x1) / 2 - (area.x0 + area.x1) / 2) < 1e-9);
}
