// See panel_window.hpp.
#include "feature/panel_window.hpp"

#include <algorithm>

namespace viz {

ImVec2 first_window_size(ImVec2 canvas, float width, float height, float narrow_height) {
  const float font = ImGui::GetFontSize();
  const float half = canvas.x / 2 - font * 1.5f;
  const bool narrow = width > half;
  const float w = narrow ? std::max(font * 16, half) : width;
  return ImVec2(w, std::min(narrow ? narrow_height : height, canvas.y - 2 * font));
}

bool begin_panel(const char* title, bool* open, ImVec2 pos, ImVec2 size, WidgetProbe* probe, const char* probe_name,
                 bool slide) {
  ImGui::SetNextWindowPos(pos, slide ? ImGuiCond_Always : ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(size, slide ? ImGuiCond_Always : ImGuiCond_FirstUseEver);
  const ImGuiWindowFlags flags = slide ? ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoMove |
                                             ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings
                                       : 0;
  if (!ImGui::Begin(title, slide ? nullptr : open, flags)) {
    ImGui::End();
    return false;
  }
  if (probe) {
    const ImVec2 at = ImGui::GetWindowPos(), extent = ImGui::GetWindowSize();
    (*probe)[probe_name] = ImVec4(at.x, at.y, at.x + extent.x, at.y + extent.y);
  }
  return true;
}

}  // namespace viz
