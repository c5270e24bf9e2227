// The side panels' widths (side_panels.hpp): the canvas keeps at least half
// the window at 1024 px, even at a UI scale of 150% (font 24 px), and wide
// windows keep the widths they had.
#include <doctest/doctest.h>

#include "model/layout/side_panels.hpp"

TEST_CASE("side panels: together at most half the window, so the canvas keeps the rest") {
  for (float window : {640.0f, 800.0f, 1024.0f, 1280.0f, 1600.0f, 2560.0f})
    for (float font : {13.0f, 16.0f, 20.0f, 24.0f, 32.0f}) {
      CAPTURE(window);
      CAPTURE(font);
      const model::SidePanelWidths w = model::side_panel_widths(window, font, true, true);
      CHECK(w.editor + w.inspector <= window * model::kSidePanelsMaxShare);
      CHECK(w.editor > 0);
      CHECK(w.inspector > 0);
    }
}

TEST_CASE("side panels: 1024 px at 150% narrows both in proportion and 1600 px keeps its widths") {
  const model::SidePanelWidths small = model::side_panel_widths(1024, 24, true, true);
  CHECK(small.editor + small.inspector == doctest::Approx(512).epsilon(0.005));  // whole pixels, rounded down
  CHECK(small.editor < small.inspector);
  const model::SidePanelWidths wide = model::side_panel_widths(1600, 16, true, true);
  CHECK(wide.editor == 320);
  CHECK(wide.inspector == 352);
}

TEST_CASE("side panels: a hidden panel is 0 wide and does not narrow the other") {
  const model::SidePanelWidths w = model::side_panel_widths(1024, 24, false, true);
  CHECK(w.editor == 0);
  CHECK(w.inspector == 24 * 14);  // its minimum: alone it fits in half the window
  CHECK(model::side_panel_widths(1024, 24, true, false).inspector == 0);
}
