// Side panels' widths (side_panels.hpp).
#include "model/layout/side_panels.hpp"

#include <algorithm>
#include <cmath>

namespace model {

SidePanelWidths side_panel_widths(float window_w, float font_px, bool editor, bool inspector) {
  SidePanelWidths w;
  // The shares and bounds keep the widths of earlier releases at 1600 px;
  // the inspector is a little wider because its equations do not wrap well.
  if (editor) w.editor = std::clamp(window_w * 0.2f, font_px * 13, font_px * 26);
  if (inspector) w.inspector = std::clamp(window_w * 0.22f, font_px * 14, font_px * 28);
  const float room = window_w * kSidePanelsMaxShare;
  if (const float both = w.editor + w.inspector; both > room) {
    w.editor *= room / both;
    w.inspector *= room / both;
  }
  // Whole pixels, rounded down, so the sum never passes the room.
  w.editor = std::floor(w.editor);
  w.inspector = std::floor(w.inspector);
  return w;
}

}  // namespace model
