// Draws one KvGrid; see kv_cache_grid.hpp. Only colours and rectangles are
// worked out here: the values come decoded from the model.
#include "kv_cache/kv_cache_grid.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "feature/plot_style.hpp"
#include "model/colour/colourmap.hpp"

namespace viz {
namespace {

constexpr ImU32 kBlocked = IM_COL32(200, 202, 208, 255);
constexpr ImU32 kHatch = IM_COL32(150, 152, 160, 255);

ImU32 to_u32(Rgba c, int alpha = 255) { return IM_COL32(c.r, c.g, c.b, alpha); }

bool flag(const std::vector<bool>& flags, Eigen::Index i) { return i < static_cast<Eigen::Index>(flags.size()) && flags[static_cast<size_t>(i)]; }

// Diagonal lines across a blocked cell, clipped to it.
void hatch_cell(ImDrawList* dl, ImVec2 a, ImVec2 b) {
  dl->AddRectFilled(a, b, kBlocked);
  dl->PushClipRect(a, b, true);
  const float step = std::max(4.0f, (b.y - a.y) / 3);
  for (float x = a.x - (b.y - a.y); x < b.x; x += step) dl->AddLine(ImVec2(x, b.y), ImVec2(x + (b.y - a.y), a.y), kHatch);
  dl->PopClipRect();
}

}  // namespace

ImVec2 kv_cell_size(int cols, float room, float widest) {
  const float font = ImGui::GetFontSize();
  const float w = std::clamp(room / std::max(1, cols), font * 0.6f, widest);
  return ImVec2(w, std::max(font * 0.8f, std::min(font * 1.25f, w)));
}

std::optional<KvCacheChoice::Hover> draw_kv_grid(const KvGrid& grid, ImVec2 cell, float label_width, const ColourOptions& colour,
                                                 WidgetProbe* probe) {
  if (!grid.stage) return std::nullopt;
  const attn::StageValues& v = grid.stage->value;
  const bool probability = grid.stage->kind == attn::ValueKind::Probability;
  double largest = 0;
  for (Eigen::Index r = 0; r < v.rows(); ++r)
    for (Eigen::Index c = 0; c < v.cols(); ++c)
      if (std::isfinite(v(r, c))) largest = std::max(largest, std::abs(v(r, c)));
  const Colourmap& map = colourmap(probability ? colour.probability_map : colour.signed_map);

  const ImVec2 top = ImGui::GetCursorScreenPos();
  const ImVec2 origin(top.x + label_width, top.y);
  const ImVec2 size(label_width + cell.x * static_cast<float>(v.cols()), cell.y * static_cast<float>(v.rows()));
  ImGui::InvisibleButton(grid.probe.c_str(), ImVec2(std::max(size.x, 1.0f), std::max(size.y, 1.0f)));
  probe_item(probe, grid.probe);
  const bool hovered = ImGui::IsItemHovered();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  char text[32];
  float digits_width = ImGui::CalcTextSize("-0.00").x;
  for (Eigen::Index r = 0; r < v.rows(); ++r) {
    const float y = origin.y + cell.y * static_cast<float>(r);
    const bool faded = flag(grid.faded_rows, r);
    if (r < static_cast<Eigen::Index>(grid.row_labels.size()))
      dl->AddText(ImVec2(top.x, y + (cell.y - ImGui::GetFontSize()) / 2), faded ? plot::kAxis : plot::kText,
                  grid.row_labels[static_cast<size_t>(r)].c_str());
    for (Eigen::Index c = 0; c < v.cols(); ++c) {
      const ImVec2 a(origin.x + cell.x * static_cast<float>(c), y), b(a.x + cell.x, a.y + cell.y);
      const double x = v(r, c);
      if (!std::isfinite(x) || flag(grid.blocked_cols, c)) {
        hatch_cell(dl, a, b);
      } else {
        const float u = probability ? static_cast<float>(std::clamp(x, 0.0, 1.0))
                                    : static_cast<float>(largest > 0 ? 0.5 + 0.5 * x / largest : 0.5);
        const Rgba fill = sample(map, u);
        dl->AddRectFilled(a, b, to_u32(fill, faded ? 70 : 255));
        if (cell.x >= digits_width + 4 && cell.y >= ImGui::GetFontSize()) {
          std::snprintf(text, sizeof text, "%.2f", x);
          const ImU32 ink = faded ? plot::kAxis : to_u32(text_colour_on(fill));
          plot::centred_text(dl, (a.x + b.x) / 2, a.y + (cell.y - ImGui::GetFontSize()) / 2, ink, text);
        }
      }
      dl->AddRect(a, b, plot::with_alpha(plot::kFrame, 160));
    }
  }
  if (grid.new_row >= 0 && grid.new_row < v.rows()) {
    const float y = origin.y + cell.y * static_cast<float>(grid.new_row);
    dl->AddRect(ImVec2(origin.x - 1, y - 1), ImVec2(origin.x + size.x - label_width + 1, y + cell.y + 1), plot::kSelected, 0, 0, 3.0f);
  }
  if (!hovered) return std::nullopt;
  const ImVec2 m = ImGui::GetIO().MousePos;
  const int col = static_cast<int>(std::floor((m.x - origin.x) / cell.x)), row = static_cast<int>(std::floor((m.y - origin.y) / cell.y));
  if (col < 0 || row < 0 || col >= v.cols() || row >= v.rows()) return std::nullopt;
  return KvCacheChoice::Hover{grid.stage->id, grid.stage->head, row, col};
}

}  // namespace viz
