// Selectables with verbatim text (text_item.hpp).
#include "widgets/text_item.hpp"

#include <imgui_internal.h>  // ImGuiSelectableFlags_SpanAvailWidth, as MenuItem uses it

namespace viz {

bool text_selectable(const std::string& text, const std::string& id, bool selected, ImGuiSelectableFlags flags) {
  const char* begin = text.c_str();
  const char* end = begin + text.size();
  const ImVec2 size = ImGui::CalcTextSize(begin, end);
  const ImVec2 at = ImGui::GetCursorScreenPos();
  // Its width for the layout (a menu fits it), its hit box the whole row, as a label's would be.
  const bool pressed = ImGui::Selectable(("##" + id).c_str(), selected, flags | ImGuiSelectableFlags_SpanAvailWidth, {size.x, 0});
  ImGui::GetWindowDrawList()->AddText(at, ImGui::GetColorU32(ImGuiCol_Text), begin, end);
  return pressed;
}

}  // namespace viz
