// Opening an explore panel: a floating window placed in the canvas on first
// use, with its rectangle recorded for --dump-layout so UI tests can find it.
#pragma once

#include <imgui.h>

#include "widgets/widget_probe.hpp"

namespace viz {

// Where a panel first opens: `width` x `height` when the canvas has room for
// two panels side by side, else half the canvas wide and `narrow_height`
// tall (plots stack when narrow), never taller than the canvas.
ImVec2 first_window_size(ImVec2 canvas, float width, float height, float narrow_height);

// ImGui::Begin at `pos` / `size` (first use only). Returns false, after
// ending the window, when it is collapsed; otherwise the caller calls End().
// `slide`: on a lesson's slide the panel is slide content, not a window:
// it fills the canvas (pos, size) with no title bar and no close box.
bool begin_panel(const char* title, bool* open, ImVec2 pos, ImVec2 size, WidgetProbe* probe, const char* probe_name,
                 bool slide = false);

}  // namespace viz
