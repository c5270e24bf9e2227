// How wide the side panels are outside presentation (the scenario editor or
// lesson on the left, the inspector on the right). At 1024x768, and worse
// at a large UI scale, panels sized by the font alone took about 58% of the
// window; here the canvas always keeps at least half of it.
#pragma once

namespace model {

struct SidePanelWidths {
  float editor = 0, inspector = 0;
};

// The most of the window's width the two panels take together.
constexpr float kSidePanelsMaxShare = 0.5f;

// Each panel is a share of the window, kept between a minimum and a maximum
// in font sizes (room for its controls at ordinary sizes); when the two
// minimums would pass kSidePanelsMaxShare, both narrow in proportion and
// their labels wrap or move above their controls instead. A hidden panel
// (`editor`/`inspector` false) is 0 wide and leaves its room to the canvas.
SidePanelWidths side_panel_widths(float window_w, float font_px, bool editor, bool inspector);

}  // namespace model
