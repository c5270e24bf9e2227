// The theme on the ImGui side: palette colours as ImGui values, and the
// ImGui style colours (windows, buttons, text) of each theme.
#pragma once

#include <imgui.h>

#include "model_names.hpp"
#include "model/settings/theme.hpp"

namespace viz {

inline ImU32 to_imgui(Rgba c) { return IM_COL32(c.r, c.g, c.b, c.a); }
inline ImVec4 to_imvec4(Rgba c) { return {c.r / 255.0f, c.g / 255.0f, c.b / 255.0f, c.a / 255.0f}; }

// Sets the colours (and, for high contrast, the frame borders) of `style`;
// sizes are left alone, so a scaled style stays scaled.
void apply_theme(ImGuiStyle& style, Theme theme);

}  // namespace viz
