// Labels that stay whole in a narrow panel. ImGui puts a control's label to
// its right and cuts it at the window's edge ("softmax ove…" at 1024x768);
// here a label goes beside its control when both fit, else on a line of its
// own above it, and long checkbox labels wrap. Each label's rectangle goes
// to --dump-layout as "label:<text>", so tests can see that none is cut.
#pragma once

#include "widgets/widget_probe.hpp"

namespace viz {

struct FittedLabel {
  const char* label = "";
  bool above = false;  // drawn already, on its own line
  float width = 0;     // the control's width
};

// Before a control `want` px wide (never under `least`, unless the panel is
// narrower still): decides where its label goes and, when above, draws it.
FittedLabel label_before(const char* label, float want, float least, WidgetProbe* probe);
// After the control: its label beside it, when label_before found room.
void label_after(const FittedLabel& f, WidgetProbe* probe);

// A checkbox whose label wraps inside the panel; a click on the label
// toggles it too, as on ImGui's own, and `help` shows over either. True
// when the value changed.
bool wrapped_checkbox(const char* label, bool* value, const char* help, WidgetProbe* probe);

// Continues the line when an item `width` px wide still fits on it within
// the window (with `gap` between, -1: the style's), else the item goes
// under it: presenting at 1024x768, rows of tabs, options and buttons wrap
// instead of running past the window's edge.
void same_line_if_room(float width, float gap = -1);

}  // namespace viz
