// The shared tooltip (tooltip.hpp).
#include "widgets/tooltip.hpp"

#include <imgui.h>

namespace viz {

void hover_tooltip(const char* text) {
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("%s", text);
}

}  // namespace viz
