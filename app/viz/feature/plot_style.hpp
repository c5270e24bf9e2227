// Colours and small drawing helpers shared by the explore panels (why scale,
// convex hull), kept in one place so the two plots read as one family and
// no colour literal is scattered through the panels.
#pragma once

#include <string>

#include <imgui.h>

namespace viz::plot {

constexpr ImU32 kBackground = IM_COL32(252, 252, 253, 255);
constexpr ImU32 kFrame = IM_COL32(190, 194, 204, 255);
constexpr ImU32 kAxis = IM_COL32(150, 154, 166, 255);
constexpr ImU32 kGrid = IM_COL32(226, 229, 236, 255);
constexpr ImU32 kText = IM_COL32(40, 44, 56, 255);
constexpr ImU32 kUnscaled = IM_COL32(222, 120, 40, 255);  // raw q·k
constexpr ImU32 kScaled = IM_COL32(46, 110, 200, 255);    // q·k / √d_k
constexpr ImU32 kHullFill = IM_COL32(46, 110, 200, 40);
constexpr ImU32 kHullEdge = IM_COL32(46, 110, 200, 220);
constexpr ImU32 kValue = IM_COL32(20, 120, 110, 255);
constexpr ImU32 kOutput = IM_COL32(222, 120, 40, 255);
constexpr ImU32 kSelected = IM_COL32(120, 60, 220, 255);  // like the canvas's source outline
constexpr ImU32 kOutside = IM_COL32(210, 40, 40, 255);

inline ImVec4 to_vec4(ImU32 c) { return ImGui::ColorConvertU32ToFloat4(c); }
inline ImU32 with_alpha(ImU32 c, int alpha) { return (c & ~IM_COL32_A_MASK) | (static_cast<ImU32>(alpha) << IM_COL32_A_SHIFT); }

// Text centred on x, top at y.
inline void centred_text(ImDrawList* dl, float x, float y, ImU32 colour, const std::string& text) {
  const ImVec2 size = ImGui::CalcTextSize(text.c_str());
  dl->AddText(ImVec2(x - size.x / 2, y), colour, text.c_str());
}

}  // namespace viz::plot
