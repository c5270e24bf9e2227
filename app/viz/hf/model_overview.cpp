// The Model view's overview: layers down, heads across, each head's weights
// as one quad of the atlas texture, framed in the colour of the chosen
// measure (or sorted by it). Hover: the numbers and the role; click: the
// head in the pipeline view; right-click: switch it off or on.
#include <algorithm>
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

#include "gl/theme_style.hpp"
#include "hf/model_view.hpp"
#include "model/colour/colourmap.hpp"

namespace viz {

namespace {

constexpr HeadMeasure kMeasures[] = {HeadMeasure::Previous, HeadMeasure::First, HeadMeasure::Self, HeadMeasure::Entropy};

void overview_controls(const ModelSession& session, ModelUi& ui) {
  ImGui::SameLine(0, ImGui::GetFontSize() * 2);
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
  if (ImGui::BeginCombo("Colour by", measure_name(ui.measure))) {
    for (HeadMeasure m : kMeasures)
      if (ImGui::Selectable(measure_name(m), m == ui.measure)) ui.measure = m;
    ImGui::EndCombo();
  }
  ImGui::SameLine();
  ImGui::Checkbox("Sort", &ui.sort_by_measure);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Order each layer's heads by the measure, highest first.");
  ImGui::Checkbox("Clicks switch off", &ui.switch_mode);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("A click switches a head off or on (a right-click always does).");
  if (session.after()) {
    ImGui::SameLine();
    ImGui::Checkbox("Show switched off", &ui.show_after);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("The weights of the run with the crossed-out heads switched off.");
  }
}

void head_tooltip(const ModelAnalysis& a, int l, int h, bool off) {
  const HeadSummary& s = a.heads[static_cast<size_t>(l)][static_cast<size_t>(h)];
  ImGui::BeginTooltip();
  ImGui::Text("Layer %d, head %d%s", l, h, off ? " (switched off)" : "");
  ImGui::Text("previous token %.2f   first token %.2f   itself %.2f", s.measures.previous, s.measures.first, s.measures.self);
  ImGui::Text("entropy %.2f nats (%.0f%% of the most it could be)", s.measures.entropy, 100 * s.measures.evenness);
  ImGui::TextUnformatted(s.role.empty() ? "No simple role." : ("It " + s.role + ".").c_str());
  ImGui::TextDisabled("Click: open it in the pipeline view. Right-click: switch it off or on.");
  ImGui::EndTooltip();
}

}  // namespace

void draw_model_overview(const ModelViewData& d, ModelUi& ui, const ThemePalette& pal, WidgetProbe* probe) {
  overview_controls(d.session, ui);
  const bool show_after = ui.show_after && d.session.after();
  const ModelAnalysis& a = show_after ? *d.session.after() : *d.session.before();
  const HeadAtlas& atlas = show_after ? d.session.atlas_after() : d.session.atlas();
  const ImTextureID texture = show_after ? d.textures.after() : d.textures.before();
  const int layers = static_cast<int>(a.heads.size());
  const int heads = layers ? static_cast<int>(a.heads[0].size()) : 0;
  if (heads == 0 || atlas.width == 0) return;
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextWrapped("Rows are layers, columns heads; each picture is one head's weights (queries down, keys across, grey: "
                     "masked), its frame the %s measure (yellow low, purple high).", measure_name(ui.measure));
  ImGui::PopStyleColor();
  // Entropy has no fixed top: the frames run from 0 to the largest of any head.
  double top = 1;
  if (ui.measure == HeadMeasure::Entropy) {
    top = 1e-9;
    for (const auto& layer : a.heads)
      for (const HeadSummary& s : layer) top = std::max(top, s.measures.entropy);
  }
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const float label_w = ImGui::CalcTextSize("L00 ").x;
  const float gap = 8;
  const float fit = std::min((avail.x - label_w) / static_cast<float>(heads), (avail.y - line) / static_cast<float>(layers));
  const float cell = std::clamp(std::floor(fit - gap), 8.0f, 160.0f);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const Colourmap& frames = colourmap(ColourmapId::Viridis);
  for (int l = 0; l < layers; ++l) {
    std::vector<int> order(static_cast<size_t>(heads));
    std::iota(order.begin(), order.end(), 0);
    if (ui.sort_by_measure)
      std::stable_sort(order.begin(), order.end(), [&](int x, int y) {
        return measure_value(a.heads[static_cast<size_t>(l)][static_cast<size_t>(x)].measures, ui.measure) >
               measure_value(a.heads[static_cast<size_t>(l)][static_cast<size_t>(y)].measures, ui.measure);
      });
    const float y = origin.y + line + static_cast<float>(l) * (cell + gap);
    dl->AddText({origin.x, y + (cell - ImGui::GetFontSize()) / 2}, to_imgui(pal.label), ("L" + std::to_string(l)).c_str());
    for (int c = 0; c < heads; ++c) {
      const int h = order[static_cast<size_t>(c)];
      const ImVec2 p0{origin.x + label_w + static_cast<float>(c) * (cell + gap), y};
      const ImVec2 p1{p0.x + cell, p0.y + cell};
      if (l == 0 && !ui.sort_by_measure)
        dl->AddText({p0.x + cell / 2 - ImGui::CalcTextSize("H0").x / 2, origin.y}, to_imgui(pal.label), ("H" + std::to_string(h)).c_str());
      const float u0 = static_cast<float>(h * atlas.tile) / static_cast<float>(atlas.width);
      const float v0 = static_cast<float>(l * atlas.tile) / static_cast<float>(atlas.height);
      const float du = static_cast<float>(atlas.tile) / static_cast<float>(atlas.width);
      const float dv = static_cast<float>(atlas.tile) / static_cast<float>(atlas.height);
      dl->AddImage(texture, p0, p1, {u0, v0}, {u0 + du, v0 + dv});
      const double value = measure_value(a.heads[static_cast<size_t>(l)][static_cast<size_t>(h)].measures, ui.measure) / top;
      dl->AddRect({p0.x - 2, p0.y - 2}, {p1.x + 2, p1.y + 2}, to_imgui(sample(frames, static_cast<float>(std::clamp(value, 0.0, 1.0)))),
                  0, 0, 3);
      if (ui.sort_by_measure) {  // sorted, the columns no longer say which head is which: each cell does
        const std::string label = "H" + std::to_string(h);
        const ImVec2 size = ImGui::CalcTextSize(label.c_str());
        const ImVec2 at{p1.x - size.x - 4, p0.y + 2};
        dl->AddRectFilled({at.x - 2, at.y}, {at.x + size.x + 2, at.y + size.y}, to_imgui(pal.canvas));
        dl->AddText(at, to_imgui(pal.label), label.c_str());
      }
      const bool off = head_is_off(ui, l, h);
      if (off) {
        dl->AddLine(p0, p1, to_imgui(pal.error), 3);
        dl->AddLine({p0.x, p1.y}, {p1.x, p0.y}, to_imgui(pal.error), 3);
      }
      ImGui::SetCursorScreenPos(p0);
      const std::string name = "model_grid_" + std::to_string(l) + "_" + std::to_string(h);
      ImGui::InvisibleButton(name.c_str(), {cell, cell}, ImGuiButtonFlags_MouseButtonLeft | ImGuiButtonFlags_MouseButtonRight);
      probe_item(probe, name);
      if (ImGui::IsItemHovered()) head_tooltip(a, l, h, off);
      if (ImGui::IsItemClicked(ImGuiMouseButton_Right) || (ImGui::IsItemClicked(ImGuiMouseButton_Left) && ui.switch_mode))
        toggle_head(ui, l, h);
      else if (ImGui::IsItemClicked(ImGuiMouseButton_Left))
        ui.open_in_pipeline = attn::hf::HeadRef{l, h};
    }
  }
  ImGui::SetCursorScreenPos(origin);
  ImGui::Dummy({label_w + static_cast<float>(heads) * (cell + gap), line + static_cast<float>(layers) * (cell + gap)});
}

}  // namespace viz
