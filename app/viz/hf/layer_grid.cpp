// Draws a layers × columns map (layer_grid.hpp) with the draw list, one
// invisible button over the whole map for hover and click.
#include "hf/layer_grid.hpp"

#include <algorithm>
#include <cmath>

#include <imgui.h>

#include "attn/text/format_number.hpp"
#include "model/colour/colour_scale.hpp"
#include "widgets/fit_label.hpp"

namespace viz {

LayerGridHit draw_layer_grid(const LayerGrid& grid, ColourmapId map, const ThemePalette& pal, WidgetProbe* probe) {
  LayerGridHit hit;
  const int rows = static_cast<int>(grid.values.size()), cols = static_cast<int>(grid.columns.size());
  if (rows == 0 || cols == 0) return hit;
  double largest = grid.range;
  if (largest <= 0)
    for (const auto& row : grid.values)
      for (double v : row) largest = std::max(largest, std::abs(v));
  ColourScale scale;
  scale.kind = attn::ValueKind::Signed;
  scale.map = map;
  scale.range = {-std::max(largest, 1e-12), std::max(largest, 1e-12)};
  const float font = ImGui::GetFontSize();
  const float label_w = ImGui::CalcTextSize("layer 00").x + font * 0.5f;
  const float cell_w = std::max(font * 3.2f, std::min(font * 5.0f, (ImGui::GetContentRegionAvail().x - label_w) /
                                                                        static_cast<float>(cols)));
  const float cell_h = font * 1.6f;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  for (int c = 0; c < cols; ++c) {
    const std::string label = fit_label(grid.columns[static_cast<std::size_t>(c)], cell_w - 4);
    dl->AddText(ImVec2(origin.x + label_w + cell_w * static_cast<float>(c) + 3, origin.y), to_imgui(pal.heading),
                label.c_str());
  }
  for (int l = 0; l < rows; ++l) {
    const float y = origin.y + cell_h * static_cast<float>(l + 1);
    dl->AddText(ImVec2(origin.x, y + (cell_h - font) / 2), to_imgui(pal.text), ("layer " + std::to_string(l)).c_str());
    const std::vector<double>& row = grid.values[static_cast<std::size_t>(l)];
    for (int c = 0; c < cols && c < static_cast<int>(row.size()); ++c) {
      const double v = row[static_cast<std::size_t>(c)];
      const ImVec2 p0(origin.x + label_w + cell_w * static_cast<float>(c), y), p1(p0.x + cell_w - 2, y + cell_h - 2);
      const Rgba fill = colour_of(scale, 0, v);
      dl->AddRectFilled(p0, p1, IM_COL32(fill.r, fill.g, fill.b, 255));
      const std::string text = fit_label(std::abs(v) < grid.zero_below ? "0" : attn::format_number(v, 2), cell_w - 6);
      dl->AddText(ImVec2(p0.x + 3, p0.y + (cell_h - 2 - font) / 2), to_imgui(text_colour_on(fill)), text.c_str());
      if (probe && !grid.probe_prefix.empty())
        (*probe)[grid.probe_prefix + "_" + std::to_string(l) + "_" + std::to_string(c)] = ImVec4(p0.x, p0.y, p1.x, p1.y);
    }
  }
  // The map as one item: hover and click land on a cell.
  const ImVec2 cells(origin.x + label_w, origin.y + cell_h);
  ImGui::InvisibleButton("##layer_grid", ImVec2(label_w + cell_w * static_cast<float>(cols), cell_h * static_cast<float>(rows + 1)));
  if (ImGui::IsItemHovered()) {
    const ImVec2 m = ImGui::GetIO().MousePos;
    const int c = static_cast<int>(std::floor((m.x - cells.x) / cell_w)), l = static_cast<int>(std::floor((m.y - cells.y) / cell_h));
    if (c >= 0 && c < cols && l >= 0 && l < rows) {
      hit.hovered = std::make_pair(l, c);
      if (ImGui::IsItemClicked(ImGuiMouseButton_Left)) hit.clicked = hit.hovered;
    }
  }
  return hit;
}

}  // namespace viz
