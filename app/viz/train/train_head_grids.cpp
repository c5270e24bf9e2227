// The Train view's head grids: one attention grid per layer and head at the
// snapshot shown, heads side by side and layers stacked, each with how much
// it looks at the previous token and at the induction target. A click opens
// that layer and head in the pipeline view, or answers a lesson's "which
// head" question.
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "canvas/cell_grid.hpp"
#include "model/layout/cell_text_plan.hpp"
#include "model/lessons/lesson_actions.hpp"
#include "train/train_view.hpp"

namespace viz {

void draw_head_grids(const TrainViewData& d, AppState& state, const ThemePalette& pal, WidgetProbe* probe, float max_h,
                     bool with_scores, const std::vector<std::pair<int, int>>& only) {
  const TrainGrids& g = d.grids;
  if (g.weights.empty()) return;
  // While a lesson asks which head it is, the scores and the frame around
  // the best head would give the answer away.
  const bool hide_answer = lesson_head_question_open(d.lessons);
  // Where each grid goes: heads side by side and layers stacked, or the
  // heads asked for in one row.
  struct Placed {
    int layer, head, row, col;
  };
  std::vector<Placed> placed;
  for (int l = 0; l < static_cast<int>(g.weights.size()); ++l)
    for (int h = 0; h < static_cast<int>(g.weights[static_cast<size_t>(l)].size()); ++h) {
      if (only.empty()) placed.push_back({l, h, l, h});
      for (size_t i = 0; i < only.size(); ++i)
        if (only[i] == std::make_pair(l, h)) placed.push_back({l, h, 0, static_cast<int>(i)});
    }
  if (placed.empty()) return;
  int rows = 0, cols = 0;
  for (const Placed& p : placed) rows = std::max(rows, p.row + 1), cols = std::max(cols, p.col + 1);
  const int n = static_cast<int>(g.tokens.size());
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const float token_w = ImGui::CalcTextSize("WW").x;  // the rows' token labels, left of the first grid
  // Square cells as large as the room allows, each grid with its title
  // above and its scores (two lines) under it.
  const float text_w = ImGui::CalcTextSize("prev 0.00  ind 0.00").x;
  const float per_w = (avail.x - token_w) / static_cast<float>(cols) - line;
  const auto cell_for = [&](int score_lines) {
    const float per_h = (std::min(avail.y, max_h) - 0.5f * line) / static_cast<float>(rows) -
                        static_cast<float>(2 + score_lines) * line;
    return std::max(3.0f, std::floor(std::min(per_w, per_h) / static_cast<float>(std::max(1, n))));
  };
  const auto fits = [&](int score_lines) {
    return static_cast<float>(rows) * (cell_for(score_lines) * static_cast<float>(n) + static_cast<float>(2 + score_lines) * line) <=
           std::min(avail.y, max_h);
  };
  int score_lines = with_scores && !hide_answer ? 2 : 0;
  // Where the scores would shrink the grids under 6 px a cell, or push them
  // past the room (a slide at 1024x768), their pattern matters more.
  if (score_lines > 0 && cell_for(score_lines) < 6 && (cell_for(0) > cell_for(score_lines) || !fits(score_lines)))
    score_lines = 0;
  const float cell = cell_for(score_lines);
  // Token labels under 8 px are not drawn: then their room goes to the columns.
  const float label_px = std::min(ImGui::GetFontSize(), cell * 0.95f);
  const float label_w = label_px >= 8 ? token_w : 0;
  // Columns are as wide as the grid or its text, but never wider than their
  // share of the room (then titles shorten), so every head stays on screen.
  const float share = (avail.x - label_w) / static_cast<float>(cols);
  const float column_w = std::max(cell * static_cast<float>(n) + line, std::min(text_w + line, share));
  const bool short_titles = ImGui::CalcTextSize(train_grid_title(0, 0).c_str()).x + line > column_w;
  const float row_h = cell * static_cast<float>(n) + static_cast<float>(2 + score_lines) * line;
  attn::BoolMat blocked = attn::BoolMat::Constant(n, n, false);
  for (int r = 0; r < n; ++r)
    for (int c = r + 1; c < n; ++c) blocked(r, c) = true;  // causal: a token never sees later ones
  ColourScale scale;
  scale.kind = attn::ValueKind::Probability;
  scale.map = state.view.colour.probability_map;
  scale.range = {0, 1};
  const ImVec2 top = ImGui::GetCursorScreenPos();
  std::optional<std::pair<int, int>> clicked;
  for (const Placed& p : placed) {
    const int l = p.layer, h = p.head;
    const attn::train::HeadScore* score = nullptr;
    for (const attn::train::HeadScore& s : g.heads) if (s.layer == l && s.head == h) score = &s;
    const std::string title = train_grid_title(l, h, short_titles);
    // Two lines where one would run into the next column's scores.
    std::string scores = head_score_text(score);
    if (ImGui::CalcTextSize(scores.c_str()).x > column_w - 0.5f * line) scores = head_score_text(score, "\n");
    const std::string name = "train_grid_" + std::to_string(l) + "_" + std::to_string(h);  // --dump-layout key
    const ImVec2 origin{top.x + label_w + static_cast<float>(p.col) * column_w, top.y + static_cast<float>(p.row) * row_h};
    const GridSpot spot{name.c_str(), false, title, &g.weights[static_cast<size_t>(l)][static_cast<size_t>(h)],
                        &blocked, nullptr, &scale};
    const auto hovered = draw_grid(spot, origin, cell, d.fonts, pal, probe,
                                   state.view.presentation ? static_cast<float>(kProjectorMinPx) : 9.0f);
    const bool best = !hide_answer && score && g.best.layer == l && g.best.head == h && g.best.induction >= 0.3;
    const ImVec2 a{origin.x - 3, origin.y + line - 3};
    const ImVec2 b{origin.x + cell * static_cast<float>(n) + 2, origin.y + line + cell * static_cast<float>(n) + 2};
    if (best) ImGui::GetWindowDrawList()->AddRect(a, b, to_imgui(pal.step), 0, 0, 3.0f);
    // While a lesson asks which head it is, the scores would give the answer away.
    if (score_lines > 0) {
      ImGui::GetWindowDrawList()->AddText({origin.x, b.y + 3}, to_imgui(best ? pal.step : pal.muted), scores.c_str());
      const ImVec2 size = ImGui::CalcTextSize(scores.c_str());
      if (probe) (*probe)["train_scores_" + std::to_string(l) + "_" + std::to_string(h)] = {origin.x, b.y + 3, origin.x + size.x, b.y + 3 + size.y};
    }
    const bool picked = d.ui.picked_head && *d.ui.picked_head == std::make_pair(l, h);
    if (picked) ImGui::GetWindowDrawList()->AddRect(a, b, to_imgui(pal.lesson), 0, 0, 2.0f);
    if (hovered) {
      const int r = hovered->first, c = hovered->second;
      ImGui::BeginTooltip();
      ImGui::Text("%s: query %s (position %d) gives key %s (position %d) weight %s", train_grid_title(l, h).c_str(),
                  g.tokens[static_cast<size_t>(r)].c_str(), r, g.tokens[static_cast<size_t>(c)].c_str(), c,
                  train_number(c <= r ? g.weights[static_cast<size_t>(l)][static_cast<size_t>(h)](r, c) : 0.0, "%.3f").c_str());
      ImGui::TextUnformatted(hide_answer    ? "Click to answer with this head."
                             : d.lessons.lesson ? "Outside a lesson, a click opens this layer and head in the pipeline view."
                                            : "Click to open this layer and head in the pipeline view.");
      ImGui::EndTooltip();
      if (ImGui::IsMouseClicked(0) && !ImGui::IsAnyItemActive()) clicked = std::make_pair(l, h);
    }
  }
  // Token labels of the first grid's rows (the same for every grid).
  ImFont* label_font = d.fonts.for_size(label_px);
  for (int row = 0; row < rows && label_px >= 8; ++row)
    for (int r = 0; r < n; ++r)
      ImGui::GetWindowDrawList()->AddText(label_font, label_px,
                                          {top.x, top.y + static_cast<float>(row) * row_h + line + static_cast<float>(r) * cell +
                                                      (cell - label_px) / 2},
                                          to_imgui(pal.label), g.tokens[static_cast<size_t>(r)].c_str());
  ImGui::Dummy({avail.x, static_cast<float>(rows) * row_h});
  if (clicked) {
    d.ui.picked_head = clicked;
    // In a lesson the click answers which head it is; outside one it opens the head.
    if (!d.lessons.lesson) d.ui.open_in_pipeline = TrainUi::OpenRequest{clicked->first, clicked->second};
  }
}


}  // namespace viz
