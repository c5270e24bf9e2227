// The compare view: A, B and B − A for one stage, side by side, in the
// canvas's place. A and B share one colour range so equal numbers look
// equal; the difference uses the signed (diverging) map around 0. Blocked
// cells are hatched on every side. Hovering a cell says all three numbers.
// While a lesson question hides the stage, the grids keep their shape but
// no numbers, and a click on A answers a "click a cell" question.
// The grids come ready from CompareGrids (computed in update, not here).
#include "compare/compare_view.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "canvas/cell_grid.hpp"
#include "canvas/grid_painter.hpp"
#include "panels/editor_panel.hpp"
#include "gl/theme_style.hpp"
#include "model_names.hpp"
#include "model/layout/cell_format.hpp"
#include "model/layout/cell_text_plan.hpp"
#include "model/framing/slide_focus.hpp"
#include "model/colour/colour_scale.hpp"
#include "model/compare/compare_actions.hpp"
#include "model/compare/lesson_compare.hpp"
#include "model/compare/compare_layout.hpp"
#include "model/lessons/lesson_actions.hpp"
#include "model/settings/theme.hpp"
#include "widgets/fit_label.hpp"
#include "widgets/tiled_window.hpp"

namespace viz {
namespace {

ColourScale shared_scale(const CompareGrids& g, const ColourOptions& o) {
  ColourScale s;
  s.kind = g.kind;
  if (g.kind == attn::ValueKind::Probability) {
    s.map = o.probability_map;
    s.range = {0, 1};
    return s;
  }
  s.map = o.signed_map;
  double hi = 0;
  for (const attn::Mat* m : {&g.a, &g.b})
    for (Eigen::Index i = 0; i < m->size(); ++i)
      if (std::isfinite(m->data()[i])) hi = std::max(hi, std::abs(m->data()[i]));
  s.range = {-(hi > 0 ? hi : 1), hi > 0 ? hi : 1};
  return s;
}

// A label on one line, or broken at a space onto two when `two_lines`
// allows and one is too wide; each line cut with "…" if still too wide.
std::vector<std::string> wrap_label(const std::string& label, float width, bool two_lines) {
  if (ImGui::CalcTextSize(label.c_str()).x <= width || !two_lines) return {fit_label(label, width)};
  const size_t space = label.find(' ');
  if (space == std::string::npos) return {fit_label(label, width)};
  return {fit_label(label.substr(0, space), width), fit_label(label.substr(space + 1), width)};
}

// Lines centred vertically on `at.y`; `align` 1 puts their right ends at
// `at.x` (row labels), 0.5 centres them on it (column labels).
void draw_label(ImDrawList* list, const std::vector<std::string>& lines, ImVec2 at, float align, ImU32 colour) {
  const float h = ImGui::GetTextLineHeight();
  float y = at.y - h * static_cast<float>(lines.size()) / 2;
  for (const std::string& l : lines) {
    const ImVec2 ts = ImGui::CalcTextSize(l.c_str());
    list->AddText({at.x - ts.x * align, y}, colour, l.c_str());
    y += h;
  }
}

void stage_picker(CompareState& c, const std::vector<attn::StageKind>& stages, int heads, WidgetProbe* probe) {
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 9);
  if (ImGui::BeginCombo("Stage##compare", attn::to_string(c.stage).c_str())) {
    for (const attn::StageKind kind : stages)
      if (ImGui::Selectable(attn::to_string(kind).c_str(), kind == c.stage)) actions::choose_compare_stage(c, kind);
    ImGui::EndCombo();
  }
  if (heads > 1) {
    ImGui::SameLine();
    // A list, as the transport bar's heads: a slider jumped a head on a click.
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 5);
    if (ImGui::BeginCombo("Head##compare", ("head " + std::to_string(c.head)).c_str())) {
      for (int h = 0; h < heads; ++h)
        if (ImGui::Selectable(("head " + std::to_string(h)).c_str(), h == c.head)) actions::choose_compare_head(c, h, heads);
      ImGui::EndCombo();
    }
    probe_item(probe, "compare_head");
  }
}

// "lo [colour bar] hi" on one line: what the grid's colours mean.
void grid_legend(ImDrawList* list, ImVec2 at, float width, const ColourScale& scale, ImU32 colour) {
  const float h = ImGui::GetTextLineHeight();
  const std::string lo = compact_number(scale.range.lo, 2), hi = compact_number(scale.range.hi, 2);
  list->AddText(at, colour, lo.c_str());
  // As wide as the grid allows, between a line's height and four.
  const float bar_x = at.x + ImGui::CalcTextSize(lo.c_str()).x + 6;
  const float bar_w = std::clamp(width - ImGui::CalcTextSize(lo.c_str()).x - ImGui::CalcTextSize(hi.c_str()).x - 12, h, 4 * h);
  paint_colour_bar(list, {bar_x, at.y + h * 0.2f}, {bar_x + bar_w, at.y + h * 0.8f}, scale.map);
  list->AddText({bar_x + bar_w + 6, at.y}, colour, hi.c_str());
}

}  // namespace

void draw_compare(ImVec2 pos, ImVec2 size, const CompareView& v, AppState& state, WidgetProbe* probe) {
  const ThemePalette& pal = palette(state.view.colour.theme);
  ImGui::SetNextWindowPos(pos);
  ImGui::SetNextWindowSize(size);
  ImGui::PushStyleColor(ImGuiCol_WindowBg, to_imgui(pal.canvas));
  begin_tiled_window("##compare",
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoBringToFrontOnFocus);
  ImGui::PopStyleColor();
  CompareState& c = v.compare;
  // The labels on their own line (cut to the width; the hover and the grid
  // titles say them again), then the picker with Close at the right end.
  ImGui::PushFont(v.fonts.bold());
  const std::string heading = fit_label("Compare   A: " + c.label_a + "   B: " + c.label_b, size.x - 20);
  ImGui::TextColored(to_imvec4(pal.heading), "%s", heading.c_str());
  ImGui::PopFont();
  // A slide has no controls: the heading says what is compared (presenting
  // a still step too: the step chose the stage).
  const bool slide = shows_slide(state, v.lessons);
  if (!slide) {
    stage_picker(c, v.stages, v.heads, probe);
    // Close at the right end of the picker's row, or under it where the row
    // has no room (the head picker ran under it at 1024 wide).
    const float picker_end = ImGui::GetItemRectMax().x - ImGui::GetWindowPos().x;
    const float close_w = ImGui::CalcTextSize("Close (Esc)").x + 2 * ImGui::GetStyle().FramePadding.x;
    const float close_x = size.x - close_w - ImGui::GetStyle().WindowPadding.x - 8;
    if (close_x >= picker_end + ImGui::GetFontSize()) ImGui::SameLine(close_x);
    if (ImGui::Button("Close (Esc)") || (ImGui::IsKeyPressed(ImGuiKey_Escape) && !ImGui::GetIO().WantTextInput))
      actions::close_compare(c);
    if (probe) (*probe)["compare_close"] = ImVec4(ImGui::GetItemRectMin().x, ImGui::GetItemRectMin().y,
                                                  ImGui::GetItemRectMax().x, ImGui::GetItemRectMax().y);
  }

  if (!v.error.empty() || !v.grids) {
    // Wrapped: a long reason ("... overflows at ...") ran off the window's edge.
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextColored(to_imvec4(pal.error), "%s", v.error.empty() ? "Nothing to compare." : v.error.c_str());
    ImGui::PopTextWrapPos();
    probe_item(probe, "compare_error");
    ImGui::End();
    return;
  }
  const CompareGrids& g = *v.grids;
  // Big grids are drawn as blocks (ShownGrids); the hover reads the block.
  const ShownGrids& shown = g.shown;
  const bool blocks = shown.block > 1;
  const attn::Mat& show_a = blocks ? shown.a : g.a;
  const attn::Mat& show_b = blocks ? shown.b : g.b;
  const attn::Mat& show_diff = blocks ? shown.diff : g.diff;
  const bool click_answers = g.hidden && v.doc && actions::compare_click_answers(v.lessons, c, *v.doc);
  // One sentence under the picker, wrapped in a narrow window.
  std::string line;
  if (!g.problem.empty()) line = g.problem;
  else if (g.hidden)
    line = g.title + ": hidden until you answer the question" + (click_answers ? ": click your answer in A." : ".");
  else
    line = g.title + ": the largest change is " + compact_number(g.max_abs_diff, 3) + ". Blocked cells are hatched on every side." +
           (blocks ? " Each square is " + std::to_string(shown.block) + "×" + std::to_string(shown.block) +
                         " cells: A and B their mean, B − A their largest change."
                   : "");
  ImGui::PushStyleColor(ImGuiCol_Text, to_imvec4(g.problem.empty() ? pal.text : pal.warning));
  ImGui::TextWrapped("%s", line.c_str());
  ImGui::PopStyleColor();

  // Three grids (two without a difference) in the room left: one line, or
  // wrapped when that gives bigger cells (compare_layout decides).
  const bool with_diff = g.diff.size() > 0;
  const float line_h = ImGui::GetTextLineHeight();
  float label_w = ImGui::GetFontSize() * 2;  // the widest row label, within reason
  for (const std::string& l : g.rows_a) label_w = std::max(label_w, ImGui::CalcTextSize(l.c_str()).x + 10);
  label_w = std::min(label_w, std::max(ImGui::GetFontSize() * 5, size.x * 0.16f));
  const ImVec2 start = ImGui::GetCursorScreenPos();
  CompareRoom room;
  room.width = size.x - (start.x - pos.x) - 10;
  room.height = size.y - (start.y - pos.y) - 10;
  room.rows = static_cast<int>(std::max(show_a.rows(), show_b.rows()));
  room.cols = static_cast<int>(std::max(show_a.cols(), show_b.cols()));
  room.grids = with_diff ? 3 : 2;
  room.row_label_w = label_w;
  room.title_h = ImGui::GetTextLineHeightWithSpacing();
  room.col_label_h = 3 * line_h + 10;  // labels may wrap onto a second line; the colour legend under them
  room.gap = ImGui::GetFontSize() * 2;
  if (blocks) room.min_cell = 1;  // blocks of a big grid: whatever fits, never past the window
  CompareLayout layout = compare_layout(room);
  // Column labels are drawn only in cells a letter wide: where the cells come
  // out smaller, their three lines go to the cells, the legend's line stays.
  if (layout.cell < ImGui::GetFontSize()) {
    CompareRoom unlabelled = room;
    unlabelled.col_label_h = line_h + 10;
    if (const CompareLayout more = compare_layout(unlabelled); more.cell > layout.cell) room = unlabelled, layout = more;
  }
  const auto cell = static_cast<float>(layout.cell);
  const bool labelled = room.col_label_h > line_h + 10;  // room was kept for column labels

  const ColourScale ab = shared_scale(g, state.view.colour);
  ColourScale d;
  d.kind = attn::ValueKind::Signed;
  d.map = state.view.colour.signed_map;
  const double span = g.max_abs_diff > 0 ? g.max_abs_diff : 1;
  d.range = {-span, span};
  const std::vector<GridSpot> spots = [&] {
    if (blocks) {
      std::vector<GridSpot> s{{"compare_a", g.hidden, "A: " + c.label_a, &show_a, &shown.blocked_a, nullptr, &ab},
                              {"compare_b", g.hidden, "B: " + c.label_b, &show_b, &shown.blocked_b, nullptr, &ab}};
      if (with_diff) s.push_back({"compare_diff", g.hidden, "B − A", &show_diff, &shown.blocked_diff, nullptr, &d});
      return s;
    }
    std::vector<GridSpot> s{{"compare_a", g.hidden, "A: " + c.label_a, &g.a, &g.blocked_a, nullptr, &ab},
                            {"compare_b", g.hidden, "B: " + c.label_b, &g.b, &g.blocked_b, nullptr, &ab}};
    if (with_diff) s.push_back({"compare_diff", g.hidden, "B − A", &g.diff, &g.blocked_a, &g.blocked_b, &d});
    return s;
  }();
  ImDrawList* list = ImGui::GetWindowDrawList();
  const ImU32 label_colour = to_imgui(pal.label);
  std::optional<std::pair<int, int>> hovered;
  bool over_a = false;
  for (size_t i = 0; i < spots.size(); ++i) {
    const GridSpot& s = spots[i];
    const float x = start.x + static_cast<float>(layout.origins[i].x), y = start.y + static_cast<float>(layout.origins[i].y);
    // Labels a line apart at least: at 1,000 rows they were drawn over each other.
    const int step = std::max(1, static_cast<int>(std::ceil(line_h / std::max(cell, 1.0f))));
    if (static_cast<int>(i) % layout.per_line == 0)  // row labels left of each line (the same tokens on every side)
      for (Eigen::Index r = 0; r < show_a.rows(); r += step) {
        const auto row = static_cast<size_t>(r * shown.block);  // a block is labelled by its first row
        if (row >= g.rows_a.size()) break;
        const float mid = y + room.title_h + static_cast<float>(r) * cell + cell / 2;
        draw_label(list, wrap_label(g.rows_a[row], label_w - 10, cell >= 2 * line_h), {x - 6, mid}, 1.0f, label_colour);
      }
    GridSpot fitted = s;  // the title cut to the grid's width
    ImGui::PushFont(v.fonts.bold());
    fitted.title = fit_label(s.title, std::max(static_cast<float>(room.cols) * cell, ImGui::GetFontSize() * 4));
    ImGui::PopFont();
    const float min_px = state.view.presentation ? static_cast<float>(kProjectorMinPx) : 9.0f;
    if (auto h = draw_grid(fitted, {x, y}, cell, v.fonts, pal, probe, min_px)) hovered = h, over_a = s.values == &show_a;
    const std::vector<std::string>& col_labels = s.values == &show_b ? g.cols_b : g.cols_a;
    const float below = y + room.title_h + static_cast<float>(s.values->rows()) * cell + 4;
    if (!g.hidden)
      grid_legend(list, {x, below + static_cast<float>(room.col_label_h) - line_h - 6}, static_cast<float>(s.values->cols()) * cell,
                  *s.scale, label_colour);
    // Column labels only where each has a cell's width of its own.
    if (labelled && cell >= ImGui::GetFontSize())
      for (size_t k = 0; k < col_labels.size() && static_cast<Eigen::Index>(k) < s.values->cols(); ++k) {
        const std::vector<std::string> lines = wrap_label(col_labels[k], cell - 4, true);
        draw_label(list, lines, {x + static_cast<float>(k) * cell + cell / 2, below + line_h * static_cast<float>(lines.size()) / 2},
                   0.5f, label_colour);
      }
  }
  if (hovered && ImGui::IsWindowHovered() && click_answers && over_a) {
    ImGui::SetMouseCursor(ImGuiMouseCursor_Hand);
    if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) actions::answer_lesson_cell(v.lessons, *v.doc, hovered->first, hovered->second);
  } else if (hovered && ImGui::IsWindowHovered() && !g.hidden && blocks) {
    // A block: the rows and columns it covers and what its square shows.
    const auto [r, col] = *hovered;
    const int k = shown.block;
    auto at = [&](const attn::Mat& m) {
      return r < m.rows() && col < m.cols() ? compact_number(m(r, col), 6) : std::string("-");
    };
    ImGui::BeginTooltip();
    ImGui::Text("rows %d to %d, columns %d to %d", r * k, std::min<int>(static_cast<int>(g.a.rows()), (r + 1) * k) - 1,
                col * k, std::min<int>(static_cast<int>(g.a.cols()), (col + 1) * k) - 1);
    ImGui::Text("A (%s), mean = %s", c.label_a.c_str(), at(show_a).c_str());
    ImGui::Text("B (%s), mean = %s", c.label_b.c_str(), at(show_b).c_str());
    if (with_diff) ImGui::Text("B − A, largest change = %s", at(show_diff).c_str());
    ImGui::EndTooltip();
  } else if (hovered && ImGui::IsWindowHovered() && !g.hidden) {
    const auto [r, col] = *hovered;
    auto at = [&](const attn::Mat& m) {
      return r < m.rows() && col < m.cols() ? compact_number(m(r, col), 6) : std::string("-");
    };
    ImGui::BeginTooltip();
    const auto label = [](const std::vector<std::string>& v, int i) { return i < static_cast<int>(v.size()) ? v[static_cast<size_t>(i)] : std::to_string(i); };
    ImGui::Text("row %s, column %s", label(g.rows_a, r).c_str(), label(g.cols_a, col).c_str());
    ImGui::Text("A (%s) = %s", c.label_a.c_str(), at(g.a).c_str());
    ImGui::Text("B (%s) = %s", c.label_b.c_str(), at(g.b).c_str());
    if (with_diff) ImGui::Text("B − A = %s", at(g.diff).c_str());
    ImGui::EndTooltip();
  }
  ImGui::End();
}

void CompareFeatureView::draw_in_canvas(const CanvasPlace& place) {
  const TraceModel& doc = place.trace;
  const attn::Trace* a = feature_.traces().a() ? feature_.traces().a() : doc.has_trace() ? &doc.trace() : nullptr;
  const attn::Trace* b = feature_.traces().b() ? feature_.traces().b() : doc.has_trace() ? &doc.trace() : nullptr;
  const CompareView view{feature_.state(), lessons_, feature_.grids() ? &*feature_.grids() : nullptr, feature_.error(),
                         a && b ? comparable_stages(*a, *b) : std::vector<attn::StageKind>{},
                         a ? std::max(a->dims.n_heads, b ? b->dims.n_heads : 1) : 1, place.fonts,
                         doc.has_trace() ? &doc.trace() : nullptr};
  draw_compare(place.pos, place.size, view, place.state, place.probe);
}

}  // namespace viz
