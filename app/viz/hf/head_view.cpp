// The Model view's head view, as BertViz draws it: one layer, the tokens in
// two columns (queries left, keys right) and a line from each query to each
// key it attends to, as opaque as the weight, one colour per head. Hovering
// a query token leaves only its lines. Checkboxes pick the heads shown. A
// long text scrolls; the lines are those of the queries in view.
#include <algorithm>
#include <cmath>
#include <string>

#include "gl/theme_style.hpp"
#include "hf/model_view.hpp"

namespace viz {

namespace {

// One colour per head (d3's category10 and two more), in head order; head
// 12 takes head 0's again.
constexpr Rgba kHeadColours[] = {{31, 119, 180, 255}, {255, 127, 14, 255}, {44, 160, 44, 255},  {214, 39, 40, 255},
                                 {148, 103, 189, 255}, {140, 86, 75, 255}, {227, 119, 194, 255}, {127, 127, 127, 255},
                                 {188, 189, 34, 255},  {23, 190, 207, 255}, {0, 0, 128, 255},     {128, 128, 0, 255}};

Rgba head_colour(int h) { return kHeadColours[static_cast<size_t>(h) % (sizeof kHeadColours / sizeof kHeadColours[0])]; }

bool head_hidden(const ModelUi& ui, int h) {
  return std::find(ui.heads_hidden.begin(), ui.heads_hidden.end(), h) != ui.heads_hidden.end();
}

void head_checkboxes(ModelUi& ui, int heads, WidgetProbe* probe) {
  for (int h = 0; h < heads; ++h) {
    if (h > 0) ImGui::SameLine();
    const Rgba c = head_colour(h);
    ImGui::PushStyleColor(ImGuiCol_CheckMark, ImVec4(c.r / 255.0f, c.g / 255.0f, c.b / 255.0f, 1));
    ImGui::PushStyleColor(ImGuiCol_FrameBg, ImVec4(c.r / 255.0f, c.g / 255.0f, c.b / 255.0f, 0.25f));
    bool shown = !head_hidden(ui, h);
    if (ImGui::Checkbox(std::to_string(h).c_str(), &shown)) {
      if (shown) ui.heads_hidden.erase(std::remove(ui.heads_hidden.begin(), ui.heads_hidden.end(), h), ui.heads_hidden.end());
      else ui.heads_hidden.push_back(h);
    }
    ImGui::PopStyleColor(2);
    probe_item(probe, "model_head_check_" + std::to_string(h));
    // Wrap before the next box would leave the room.
    if (h + 1 < heads && ImGui::GetItemRectMax().x + ImGui::GetFrameHeight() * 2.5f > ImGui::GetWindowPos().x + ImGui::GetWindowWidth())
      ImGui::NewLine();
  }
  ImGui::SameLine();
  if (ImGui::SmallButton("All")) ui.heads_hidden.clear();
  ImGui::SameLine();
  if (ImGui::SmallButton("None")) {
    ui.heads_hidden.clear();
    for (int h = 0; h < heads; ++h) ui.heads_hidden.push_back(h);
  }
}

}  // namespace

void draw_head_view(const ModelViewData& d, ModelUi& ui, const ThemePalette& pal, WidgetProbe* probe) {
  const ModelAnalysis& a = *d.session.before();
  const int layers = static_cast<int>(a.forward->layers.size());
  if (layers == 0) return;
  ui.layer = std::clamp(ui.layer, 0, layers - 1);
  // Beside the tabs when it fits, else on a line of its own (1024x768).
  const float slider_w = ImGui::GetFontSize() * 10;
  same_line_if_room(slider_w + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize("Layer").x,
                    ImGui::GetFontSize() * 2);
  ImGui::SetNextItemWidth(slider_w);
  ImGui::SliderInt("Layer", &ui.layer, 0, layers - 1);
  probe_item(probe, "model_layer");
  const auto& weights = a.forward->layers[static_cast<size_t>(ui.layer)].attentions;
  const int heads = static_cast<int>(weights.size());
  head_checkboxes(ui, heads, probe);
  std::vector<std::string> labels;
  for (const std::string& s : d.session.labels()) labels.push_back(shown_token(s));
  const int n = static_cast<int>(labels.size());
  const float line = ImGui::GetTextLineHeightWithSpacing();
  float label_w = ImGui::CalcTextSize("W").x;
  for (const std::string& s : labels) label_w = std::max(label_w, ImGui::CalcTextSize(s.c_str()).x);
  // The tokens scroll in their own region, so the hint under it stays in
  // view however long the text; lines leaving the region are cut at its edge.
  const float hint_h = ImGui::GetTextLineHeightWithSpacing();
  const float region_h = std::max(ImGui::GetContentRegionAvail().y - hint_h, line * 4);
  ImGui::BeginChild("##head_view_tokens", {0, std::min(region_h, static_cast<float>(n) * line + 2 * ImGui::GetStyle().WindowPadding.y)},
                    false);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float avail_w = ImGui::GetContentRegionAvail().x;
  const float span = std::clamp(avail_w - 2 * label_w - 20, 60.0f, ImGui::GetFontSize() * 24);
  const float x_left = origin.x + label_w;  // the query column's right edge
  const float x_right = x_left + 10 + span;  // the key column's left edge
  ImDrawList* dl = ImGui::GetWindowDrawList();
  // The rows in view: only their lines and labels are drawn.
  const ImVec2 clip_min = dl->GetClipRectMin(), clip_max = dl->GetClipRectMax();
  const int first = std::clamp(static_cast<int>((clip_min.y - origin.y) / line), 0, n);
  const int last = std::clamp(static_cast<int>((clip_max.y - origin.y) / line) + 1, first, n);
  // The query under the mouse, if any: only its lines are drawn then.
  int focus = -1;
  const ImVec2 mouse = ImGui::GetMousePos();
  if (ImGui::IsWindowHovered() && mouse.x >= origin.x && mouse.x <= x_left && mouse.y >= std::max(origin.y, clip_min.y) &&
      mouse.y < std::min(origin.y + static_cast<float>(n) * line, clip_max.y))
    focus = static_cast<int>((mouse.y - origin.y) / line);
  if (focus >= 0) ui.hovered_position = focus;
  // A window's draw list holds 65,536 vertices (16-bit indices): the lines
  // stop well before (4 vertices each), the strongest first would cost a sort.
  int budget = 12000;
  const float visible_heads = static_cast<float>(std::max(1, heads - static_cast<int>(ui.heads_hidden.size())));
  for (int h = 0; h < heads && budget > 0; ++h) {
    if (head_hidden(ui, h)) continue;
    const Rgba c = head_colour(h);
    const auto& w = weights[static_cast<size_t>(h)];
    for (int i = focus >= 0 ? focus : first; i < (focus >= 0 ? focus + 1 : last) && budget > 0; ++i) {
      const float yi = origin.y + (static_cast<float>(i) + 0.5f) * line;
      for (int j = 0; j < n && budget > 0; ++j) {
        const float v = w(i, j);
        if (v < 0.02f) continue;
        // Several heads share each line's place: each is fainter when many are shown.
        const float alpha = focus >= 0 ? v : v / std::sqrt(visible_heads);
        const float yj = origin.y + (static_cast<float>(j) + 0.5f) * line;
        dl->AddLine({x_left + 4, yi}, {x_right - 4, yj}, IM_COL32(c.r, c.g, c.b, static_cast<int>(255 * std::clamp(alpha, 0.0f, 1.0f))),
                    focus >= 0 ? 2.5f : 1.5f);
        --budget;
      }
    }
  }
  for (int i = first; i < last; ++i) {
    const float y = origin.y + static_cast<float>(i) * line;
    const ImU32 colour = to_imgui(i == focus ? pal.step : pal.text);
    const std::string& s = labels[static_cast<size_t>(i)];
    const char* end = s.c_str() + s.size();  // drawn, not an ImGui label: "##" in a token stays visible
    dl->AddText({x_left - ImGui::CalcTextSize(s.c_str(), end).x, y}, colour, s.c_str(), end);
    dl->AddText({x_right, y}, to_imgui(pal.text), s.c_str(), end);
  }
  ImGui::Dummy({x_right - origin.x + label_w, static_cast<float>(n) * line});
  ImGui::EndChild();
  probe_item(probe, "model_head_view");
  if (focus < 0) ImGui::TextDisabled("Hover a token on the left to see only where it looks.");
  probe_item(probe, "model_head_hint");
}

}  // namespace viz
