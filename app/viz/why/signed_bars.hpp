// Parts of a whole as horizontal bars around a zero line: a label, a bar
// (right of zero for a positive part, left for a negative one, lengths to
// the same scale) and its value text. Used to show what a score is made of.
#pragma once

#include <string>
#include <vector>

#include <imgui.h>

#include "gl/theme_style.hpp"
#include "widgets/widget_probe.hpp"

namespace viz {

struct SignedBar {
  std::string label;
  double value = 0;
  std::string text;  // printed after the bar, e.g. "1.08 (34%)"
  bool highlight = false;  // drawn in the emphasis colour (the part the text points at)
};

// A bar's text: the part and its share of the whole, "1.08 (34%)" (the
// part alone when the whole is 0), or the share alone, "34%" ("" then).
std::string part_and_share(double part, double whole);
std::string share_of(double part, double whole);

// The line above a set of bars, muted and wrapped to the panel's width.
void draw_bars_caption(const std::string& text, const ThemePalette& pal);

// One row per bar at the cursor, full width. `probe_name`: when given, each
// bar's rectangle goes into the probe as probe_name + "_" + its index.
void draw_signed_bars(const std::vector<SignedBar>& bars, const ThemePalette& pal, WidgetProbe* probe = nullptr,
                      const std::string& probe_name = "");

}  // namespace viz
