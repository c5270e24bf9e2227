// The app's main windows tile the screen (panels(): lesson, editor, canvas,
// inspector, transport bar) and never overlap. Such a window's opaque
// background can be a scissored glClear, run before any window is drawn,
// instead of a blended quad: the same pixels (the clear writes the colour
// ImGui would have blended at alpha 1), at a fraction of the cost under
// software GL, where those quads were a third of a frame's shaded pixels.
// Floating windows (tooltips, popups, explore panels) paint their own.
#pragma once

#include <imgui.h>

namespace viz {

// ImGui::Begin for a tiled window: its background, the style's WindowBg
// when Begin is called, comes from the clear when it is opaque (a
// translucent one, such as an export's transparent background, is drawn as
// usual). Pair with ImGui::End as usual.
bool begin_tiled_window(const char* name, ImGuiWindowFlags flags, bool* open = nullptr);

// A view that takes the canvas's place (Train, Model): a tiled window fixed
// at `pos` and `size`, with no title, never raised over the floating panels.
bool begin_view_window(const char* name, ImVec2 pos, ImVec2 size);

}  // namespace viz
