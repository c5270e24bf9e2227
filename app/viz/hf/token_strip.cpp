// The Model view's token strip: the tokens as the model reads them, as
// chips in a scrolling region of bounded height, so a text of a thousand
// tokens leaves the predictions and the switch-off controls in view.
// A chip's text is drawn, never passed as an ImGui label: BERT's "##s"
// would read as an ID separator and leave the chip blank.
#include <algorithm>
#include <string>
#include <vector>

#include "gl/theme_style.hpp"
#include "hf/model_view.hpp"

namespace viz {

void draw_token_strip(const ModelSession& session, ModelUi& ui, WidgetProbe* probe) {
  const std::vector<std::string>& labels = session.labels();
  ui.hovered_position = -1;
  if (labels.empty()) return;
  std::vector<std::string> shown;
  for (const std::string& s : labels) shown.push_back(shown_token(s));
  const ImGuiStyle& style = ImGui::GetStyle();
  const float chip_h = ImGui::GetTextLineHeight() + 2 * style.FramePadding.y * 0.5f;
  const float gap = 2;
  // Rows the chips wrap into at this width: the region is as tall as they
  // need, up to a third of the column (at least four rows).
  const float width = ImGui::GetContentRegionAvail().x - style.ScrollbarSize - 2 * style.WindowPadding.x;
  std::vector<float> widths;
  int rows = 1;
  float x = 0;
  for (const std::string& s : shown) {
    const float w = ImGui::CalcTextSize(s.c_str(), s.c_str() + s.size()).x + 2 * style.FramePadding.x;
    if (x > 0 && x + w > width) {
      ++rows;
      x = 0;
    }
    x += w + gap;
    widths.push_back(w);
  }
  const float row_h = chip_h + gap;
  const float most = std::max(ImGui::GetContentRegionAvail().y / 3, 4 * row_h);
  const float height = std::min(static_cast<float>(rows) * row_h, most) + 2 * style.WindowPadding.y;
  ImGui::BeginChild("##model_tokens", {0, height}, true);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 start = ImGui::GetCursorScreenPos();
  const float right = start.x + ImGui::GetContentRegionAvail().x;
  ImVec2 at = start;
  for (size_t i = 0; i < shown.size(); ++i) {
    const float w = widths[i];
    if (at.x > start.x && at.x + w > right) at = {start.x, at.y + row_h};
    ImGui::SetCursorScreenPos(at);
    ImGui::PushID(static_cast<int>(i));
    ImGui::InvisibleButton("chip", {w, chip_h});
    ImGui::PopID();
    const bool hovered = ImGui::IsItemHovered();
    if (hovered) ui.hovered_position = static_cast<int>(i);
    if (ImGui::IsItemVisible()) {  // chips out of view cost no vertices
      const ImVec2 p0 = ImGui::GetItemRectMin(), p1 = ImGui::GetItemRectMax();
      dl->AddRectFilled(p0, p1, ImGui::GetColorU32(hovered ? ImGuiCol_ButtonHovered : ImGuiCol_Button), style.FrameRounding);
      const std::string& s = shown[i];
      dl->AddText({p0.x + style.FramePadding.x, p0.y + style.FramePadding.y * 0.5f}, ImGui::GetColorU32(ImGuiCol_Text), s.c_str(),
                  s.c_str() + s.size());
    }
    if (probe) probe_item(probe, "model_token_" + std::to_string(i));
    at.x += w + gap;
  }
  ImGui::EndChild();
  probe_item(probe, "model_tokens");
}

}  // namespace viz
