// Lines the user must see whichever view is open: the open file changed on
// disk (Reload, or keep this version) and the notices (OK). The canvas's
// status panel draws them; over the Welcome page, the compare view and the
// Train view, which cover that panel, a small window at the canvas's
// bottom does, so a notice lasts until the user has seen and dismissed it.
#pragma once

#include <imgui.h>

#include "widgets/widget_probe.hpp"
#include "model_names.hpp"
#include "model/document/app_state.hpp"

namespace viz {

// Height of what draw_notice_lines() draws at `wrap_width`; 0 when nothing.
float notice_lines_height(const AppState& state, float wrap_width);
// Draws them at the cursor, wrapped at the current wrap position.
void draw_notice_lines(AppState& state, WidgetProbe* probe);
// The window form, over views that cover the status panel.
void draw_notice_window(ImVec2 canvas_pos, ImVec2 canvas_size, AppState& state, WidgetProbe* probe);

}  // namespace viz
