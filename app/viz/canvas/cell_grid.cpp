// Drawing a small matrix cell by cell (cell_grid.hpp).
#include "canvas/cell_grid.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>

#include "canvas/grid_painter.hpp"
#include "model_names.hpp"
#include "model/layout/cell_format.hpp"

namespace viz {
namespace {

bool blocked_at(const attn::BoolMat* m, Eigen::Index r, Eigen::Index c) { return m && m->size() && (*m)(r, c); }

}  // namespace

// One grid at `origin` with square cells of `cell` px; returns the hovered cell.
std::optional<std::pair<int, int>> draw_grid(const GridSpot& g, ImVec2 origin, float cell, const FontSet& fonts,
                                             const ThemePalette& pal, WidgetProbe* probe, float min_text_px) {
  ImDrawList* list = ImGui::GetWindowDrawList();
  const attn::Mat& m = *g.values;
  const float title_h = ImGui::GetTextLineHeightWithSpacing();
  list->AddText(fonts.bold(), ImGui::GetFontSize(), origin, to_imgui(pal.title), g.title.c_str());
  const ImVec2 top{origin.x, origin.y + title_h};
  const float text_px = std::clamp(cell * 0.32f, min_text_px, std::max(40.0f, min_text_px));
  std::optional<ImVec4> digits;  // one printed number, for the probe
  ImFont* font = fonts.for_size(text_px);
  std::optional<std::pair<int, int>> hovered;
  // Only when this window is the one under the pointer: behind a modal
  // (Unsaved edits: Save / Discard / Cancel) a grid is neither hovered nor
  // clicked. A click on Discard over a Train-view grid opened that grid's
  // head instead of the one asked for.
  const bool reachable = ImGui::IsWindowHovered(ImGuiHoveredFlags_AllowWhenBlockedByActiveItem);
  const ImVec2 mouse = reachable ? ImGui::GetIO().MousePos : ImVec2(-1e9f, -1e9f);
  // Every shown number, or none: a blank among numbers reads as "not computed".
  auto label = [&](double v) {
    std::string text = compact_number(v, cell >= 60 ? 3 : 2);
    if (font->CalcTextSizeA(text_px, FLT_MAX, 0, text.c_str()).x >= cell - 4)
      text = narrowest_candidate(v);  // too wide: the narrowest form that still reads as this value
    return text;
  };
  bool numbers = !g.hidden && cell >= 26 && text_px <= cell;
  for (Eigen::Index r = 0; r < m.rows() && numbers; ++r)
    for (Eigen::Index c = 0; c < m.cols() && numbers; ++c)
      if (std::isfinite(m(r, c)) && !blocked_at(g.blocked_a, r, c) && !blocked_at(g.blocked_b, r, c))
        numbers = font->CalcTextSizeA(text_px, FLT_MAX, 0, label(m(r, c)).c_str()).x < cell - 4;
  for (Eigen::Index r = 0; r < m.rows(); ++r)
    for (Eigen::Index c = 0; c < m.cols(); ++c) {
      const ImVec2 a{top.x + static_cast<float>(c) * cell, top.y + static_cast<float>(r) * cell};
      const float gap = cell >= 4 ? 1.0f : 0.0f;  // a 1 px line between cells, where a cell has room for one
      const ImVec2 b{a.x + cell - gap, a.y + cell - gap};
      const bool blocked = blocked_at(g.blocked_a, r, c) || blocked_at(g.blocked_b, r, c) || !std::isfinite(m(r, c));
      if (g.hidden) {
        list->AddRectFilled(a, b, to_imgui(pal.hidden_cell));
        list->AddRect(a, {b.x + 1, b.y + 1}, to_imgui(pal.hidden_lines));
      } else if (blocked) {
        paint_masked(list, a, b, pal);  // the canvas's masked look
      } else {
        const Rgba fill = colour_of(*g.scale, static_cast<int>(r), m(r, c));
        list->AddRectFilled(a, b, to_imgui(fill));
        if (numbers) {
          const std::string text = label(m(r, c));
          const ImVec2 size = font->CalcTextSizeA(text_px, FLT_MAX, 0, text.c_str());
          const ImVec2 at{a.x + (cell - 1 - size.x) / 2, a.y + (cell - 1 - size.y) / 2};
          list->AddText(font, text_px, at, to_imgui(text_colour_on(fill)), text.c_str());
          if (!digits) digits = ImVec4(at.x, at.y, at.x + size.x, at.y + text_px);
        }
      }
      if (mouse.x >= a.x && mouse.x < a.x + cell && mouse.y >= a.y && mouse.y < a.y + cell)
        hovered = std::make_pair(static_cast<int>(r), static_cast<int>(c));
    }
  const ImVec2 end{top.x + static_cast<float>(m.cols()) * cell, top.y + static_cast<float>(m.rows()) * cell};
  if (g.hidden) {  // one "?" over the grid, as on the canvas
    const float px = std::clamp(std::min(end.x - top.x, end.y - top.y) * 0.4f, 12.0f, 64.0f);
    ImFont* big = fonts.for_size(px);
    const ImVec2 q = big->CalcTextSizeA(px, FLT_MAX, 0, "?");
    list->AddText(big, px, {(top.x + end.x - q.x) / 2, (top.y + end.y - q.y) / 2}, to_imgui(pal.hidden_mark), "?");
  }
  list->AddRect({top.x - 1, top.y - 1}, end, to_imgui(pal.grid_frame));
  if (probe) {
    (*probe)[g.probe] = ImVec4(top.x, top.y, end.x, end.y);
    (*probe)[std::string(g.probe) + ":cell"] = ImVec4(top.x, top.y, top.x + cell, top.y + cell);
    if (digits) (*probe)[std::string(g.probe) + ":digits"] = *digits;
  }
  return hovered;
}


}  // namespace viz
