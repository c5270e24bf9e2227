// The Model view's Lens tab: the logit lens as a grid, one column per token
// and one row per depth (the embeddings, then after each layer; the last row
// is the model's own guess). Each cell shows the top guess for the token
// that FOLLOWS its column's token, shaded by its probability in the
// probability colours; a guess that is the text's actual next token is
// outlined. Hovering a cell lists its five guesses.
#include <algorithm>
#include <cstdio>
#include <string>

#include "hf/model_view.hpp"
#include "model/colour/colour_scale.hpp"
#include "widgets/fit_label.hpp"
#include "widgets/long_text.hpp"

namespace viz {

namespace {

std::string percent(double p) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%.0f%%", 100.0 * p);
  return buf;
}

void cell_tooltip(const LensGrid& g, const ModelSession& session, int row, int t) {
  ImGui::BeginTooltip();
  ImGui::Text("%s, after \"%s\" (position %d):", g.row_names[static_cast<std::size_t>(row)].c_str(),
              shown_token(session.labels()[static_cast<std::size_t>(t)]).c_str(), t);
  for (const TokenPrediction& p : g.top[static_cast<std::size_t>(row)][static_cast<std::size_t>(t)])
    ImGui::Text("  %-6s %s", percent(p.probability).c_str(), shown_token(p.text).c_str());
  ImGui::EndTooltip();
}

}  // namespace

void draw_model_lens(const ModelViewData& d, ColourmapId map, const ThemePalette& pal, WidgetProbe* probe) {
  const ModelSession& s = d.session;
  const LensGrid* g = s.lens().result(s.before());
  wrapped_text("The logit lens: what the model would guess next if it stopped after each layer. Each column is a "
               "token of the text, each row a depth; a cell holds the top guess for the token that follows, shaded by "
               "its probability. Outlined: the guess is the text's actual next token. Hover a cell for its five "
               "guesses.");
  if (!s.checkpoint() || !s.checkpoint()->config().causal) {
    wrapped_text("This model has no next-token head (it is not a causal model), so it has no logit lens.");
    return;
  }
  if (pass_job_waiting("the logit lens", PassJobState::of(s.lens()), g != nullptr, d.ui.lens_request, pal, probe)) return;
  const float font = ImGui::GetFontSize();
  const float label_w = ImGui::CalcTextSize("after layer 00").x + font;
  const float cell_w = font * 5.5f, cell_h = font * 1.7f;
  const int rows = static_cast<int>(g->top.size());
  const int n = rows > 0 ? static_cast<int>(g->top[0].size()) : 0;
  ImGui::BeginChild("##lens_grid", {0, 0}, false, ImGuiWindowFlags_HorizontalScrollbar);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float top = origin.y + cell_h;  // the tokens' header row first
  ColourScale scale;
  scale.kind = attn::ValueKind::Probability;
  scale.map = map;
  for (int t = 0; t < n; ++t) {
    const float x = origin.x + label_w + cell_w * static_cast<float>(t);
    const std::string label = fit_label(shown_token(s.labels()[static_cast<std::size_t>(t)]), cell_w - 4);
    dl->AddText(ImVec2(x + 2, origin.y + (cell_h - font) / 2), to_imgui(pal.heading), label.c_str());
  }
  int hovered_row = -1, hovered_t = -1;
  for (int row = 0; row < rows; ++row) {
    const float y = top + cell_h * static_cast<float>(row);
    const std::string name = g->row_names[static_cast<std::size_t>(row)] + (row == rows - 1 ? " =" : "");
    dl->AddText(ImVec2(origin.x, y + (cell_h - font) / 2), to_imgui(pal.text), name.c_str());
    for (int t = 0; t < n; ++t) {
      const auto& guesses = g->top[static_cast<std::size_t>(row)][static_cast<std::size_t>(t)];
      if (guesses.empty()) continue;
      const TokenPrediction& best = guesses.front();
      const ImVec2 a(origin.x + label_w + cell_w * static_cast<float>(t), y), b(a.x + cell_w - 2, a.y + cell_h - 2);
      const Rgba fill = colour_of(scale, 0, best.probability);
      dl->AddRectFilled(a, b, IM_COL32(fill.r, fill.g, fill.b, 255));
      const std::string text = fit_label(shown_token(best.text), cell_w - 6);
      dl->AddText(ImVec2(a.x + 3, a.y + (cell_h - 2 - font) / 2), to_imgui(text_colour_on(fill)), text.c_str());
      const bool next = t + 1 < static_cast<int>(s.ids().size()) && best.id == s.ids()[static_cast<std::size_t>(t + 1)];
      if (next) dl->AddRect(a, b, to_imgui(pal.right), 0, 0, 3);
      if (probe) (*probe)["lens_cell_" + std::to_string(row) + "_" + std::to_string(t)] = ImVec4(a.x, a.y, b.x, b.y);
      if (ImGui::IsMouseHoveringRect(a, b) && ImGui::IsWindowHovered()) hovered_row = row, hovered_t = t;
    }
  }
  ImGui::Dummy(ImVec2(label_w + cell_w * static_cast<float>(n), cell_h * static_cast<float>(rows + 1)));
  if (hovered_row >= 0) cell_tooltip(*g, s, hovered_row, hovered_t);
  ImGui::TextColored(to_imvec4(pal.muted), "The last row (=) is the model's own prediction.");
  ImGui::EndChild();
}

}  // namespace viz
