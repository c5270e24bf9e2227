// Inspector rendering. Long term lists (a 1024-key softmax row) go through
// ImGuiListClipper so only the visible lines are laid out.
#include "panels/inspector_panel.hpp"

#include <algorithm>
#include <string>

#include "gl/theme_style.hpp"
#include "widgets/long_text.hpp"
#include "panels/rope_dial_view.hpp"
#include "widgets/tiled_window.hpp"
#include "why/score_why_view.hpp"
#include "why/source_bars.hpp"
#include "attn/text/format_number.hpp"

namespace viz {
namespace {

std::string num(double v) { return attn::format_number(v, 4); }

// A term in two parts, each one line: what is combined ("q[0] × k[2]",
// "exp(x)") and with which numbers ("0.31 × -0.2"); the value goes in a
// third column so no part hides another.
struct TermText {
  std::string labels, numbers;
};

TermText term_text(const attn::Term& t) {
  if (t.op == "exp" || t.op == "tanh" || t.op == "sin" || t.op == "cos")
    return {t.op + "(" + t.lhs_label + ")", t.op + "(" + num(t.lhs) + ")"};
  if (t.op.empty()) return {t.lhs_label, ""};
  return {t.lhs_label + " " + t.op + " " + t.rhs_label, num(t.lhs) + " " + t.op + " " + num(t.rhs)};
}

std::string region_text(const attn::Trace& trace, const attn::SourceRegion& r) {
  const attn::Stage* s = trace.find(r.stage);
  const std::string name = s ? s->title : attn::to_string(r.stage.id);
  const int rows = s ? static_cast<int>(s->value.rows()) : 0, cols = s ? static_cast<int>(s->value.cols()) : 0;
  std::string what;
  if (r.row1 - r.row0 == 1 && r.col1 - r.col0 == 1) what = "cell [" + std::to_string(r.row0) + "," + std::to_string(r.col0) + "]";
  else if (r.row1 - r.row0 == 1 && r.col0 == 0 && r.col1 == cols) what = "row " + std::to_string(r.row0);
  else if (r.col1 - r.col0 == 1 && r.row0 == 0 && r.row1 == rows) what = "column " + std::to_string(r.col0);
  else what = "rows " + std::to_string(r.row0) + "–" + std::to_string(r.row1 - 1) + ", columns " +
              std::to_string(r.col0) + "–" + std::to_string(r.col1 - 1);
  return what + " of " + name + (r.stage.head >= 0 ? " (head " + std::to_string(r.stage.head) + ")" : "");
}

void draw_step(const attn::ExplainStep& step, int index, const ThemePalette& pal) {
  ImGui::PushID(index);
  ImGui::TextColored(to_imvec4(pal.emphasis), "%d. %s", index + 1, step.title.c_str());
  // The "sum" step repeats the products' terms, and a single-term step's
  // equation already shows the whole calculation: list terms only otherwise.
  const bool single = step.terms.size() == 1 && !step.equation.empty();
  const bool list = !step.terms.empty() && step.title != "sum" && !single;
  if (list) {
    // Long lists (a 1024-key softmax row) show their ends; the rest on demand.
    const int n = static_cast<int>(step.terms.size());
    constexpr int kEnds = 5;
    const bool all = n <= 2 * kEnds + 2 || ImGui::TreeNode("terms", "all %d terms", n);
    // Three columns (what · numbers · value) when they fit the panel, else
    // two lines per term, so no part is ever clipped.
    const float spacing = ImGui::GetStyle().CellPadding.x * 6 + ImGui::GetStyle().ItemSpacing.x;
    float w_labels = 0, w_numbers = 0, w_value = 0;
    for (int i = 0; i < n; i = (n > 2 * kEnds && i == kEnds - 1) ? n - kEnds : i + 1) {
      const attn::Term& t = step.terms[static_cast<size_t>(i)];
      const TermText text = term_text(t);
      w_labels = std::max(w_labels, ImGui::CalcTextSize(text.labels.c_str()).x);
      w_numbers = std::max(w_numbers, ImGui::CalcTextSize(text.numbers.c_str()).x);
      w_value = std::max(w_value, ImGui::CalcTextSize(("= " + num(t.value)).c_str()).x);
    }
    const float avail = ImGui::GetContentRegionAvail().x;
    const bool columns = w_labels + w_numbers + w_value + spacing <= avail;
    // Stacked: "= a × b = value" on one indented line if it fits, else two.
    const float indent = ImGui::GetStyle().IndentSpacing + spacing;
    const bool split_value = w_numbers + w_value + ImGui::CalcTextSize("= ").x + indent > avail;
    if (ImGui::BeginTable("terms", columns ? 3 : 1, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit |
                                                      (columns ? ImGuiTableFlags_BordersInnerV : 0))) {
      ImGui::TableSetupColumn("term", ImGuiTableColumnFlags_WidthStretch);
      if (columns) {
        ImGui::TableSetupColumn("numbers");
        ImGui::TableSetupColumn("value");
      }
      auto row = [&](int i) {
        const attn::Term& t = step.terms[static_cast<size_t>(i)];
        const TermText text = term_text(t);
        const std::string value = "= " + num(t.value);
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        // Every term takes the same number of lines: the clipper needs equal heights.
        if (columns) ImGui::TextUnformatted(text.labels.c_str());
        else wrapped_text(text.labels);
        if (columns) {
          ImGui::TableNextColumn();
          ImGui::TextUnformatted(text.numbers.c_str());
          ImGui::TableNextColumn();
          ImGui::TextUnformatted(value.c_str());
        } else {
          ImGui::Indent();
          if (split_value) {
            ImGui::Text("%s%s", text.numbers.empty() ? "" : "= ", text.numbers.c_str());
            ImGui::TextUnformatted(value.c_str());
          } else {
            ImGui::Text("%s%s %s", text.numbers.empty() ? "" : "= ", text.numbers.c_str(), value.c_str());
          }
          ImGui::Unindent();
        }
      };
      if (all) {
        ImGuiListClipper clipper;
        clipper.Begin(n);
        while (clipper.Step())
          for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) row(i);
      } else {
        for (int i = 0; i < kEnds; ++i) row(i);
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextDisabled("… %d more …", n - 2 * kEnds);
        for (int i = n - kEnds; i < n; ++i) row(i);
      }
      ImGui::EndTable();
    }
    if (all && n > 2 * kEnds + 2) ImGui::TreePop();
  }
  if (!step.equation.empty()) wrapped_text(step.equation);
  ImGui::Spacing();
  ImGui::PopID();
}

}  // namespace

void draw_inspector(ImVec2 pos, ImVec2 size, const attn::Trace* trace, const attn::Explanation* e, const model::RopeDial* dial,
                    const InspectedWhy& why, AppState& state, WidgetProbe* probe) {
  const attn::ScoreSplit* split = why.split;
  ImGui::SetNextWindowPos(pos);
  ImGui::SetNextWindowSize(size);
  begin_tiled_window("Inspector", ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                                         ImGuiWindowFlags_NoSavedSettings);
  const ThemePalette& pal = palette(state.view.colour.theme);
  if (!e || !trace) {
    // Nothing inspected: the panel tells what this scene is about, in full.
    if (!state.doc.description.empty()) {
      ImGui::TextColored(to_imvec4(pal.heading), "About this scene");
      wrapped_text(state.doc.description);
      ImGui::Separator();
    }
    ImGui::TextWrapped("Hover over any cell to see exactly how it was computed, with the real numbers. "
                       "Click a cell to pin it here; click it again or press Escape to unpin.");
    ImGui::Spacing();
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
    ImGui::TextWrapped("The cells it came from light up in purple.");  // wrapped: a narrow inspector cut it
    ImGui::PopStyleColor();
    ImGui::End();
    return;
  }
  const attn::Stage* s = trace->find(e->stage);
  const std::string title = (s ? s->title : attn::to_string(e->stage.id)) + " [" + std::to_string(e->row) + ", " + std::to_string(e->col) + "]";
  ImGui::Text("%s", title.c_str());
  if (e->stage.head >= 0) {
    ImGui::SameLine();
    ImGui::TextDisabled("head %d", e->stage.head);
  }
  // "unpin" at the right end of the title line, or under it when the panel is narrow.
  const float button_w = ImGui::CalcTextSize("unpin").x + 2 * ImGui::GetStyle().FramePadding.x;
  const float title_end = ImGui::GetItemRectMax().x - ImGui::GetWindowPos().x;
  const float button_x = ImGui::GetWindowContentRegionMax().x - button_w;
  if (button_x > title_end + ImGui::GetStyle().ItemSpacing.x) ImGui::SameLine(button_x);
  if (state.pinned) {
    if (ImGui::SmallButton("unpin")) state.pinned.reset();
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Stop showing this cell (Escape)");
  } else {
    ImGui::TextDisabled("hover");
  }
  if (s && e->row < static_cast<int>(s->row_labels.size()) && e->col < static_cast<int>(s->col_labels.size()))
  {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
    ImGui::TextWrapped("row \"%s\", column \"%s\"", s->row_labels[static_cast<size_t>(e->row)].c_str(),
                       s->col_labels[static_cast<size_t>(e->col)].c_str());
    ImGui::PopStyleColor();
  }
  ImGui::Separator();
  ImGui::Text("value = %s", attn::format_number(e->value, 6).c_str());
  wrapped_text(e->formula);
  ImGui::Spacing();
  ImGui::BeginChild("steps", {0, 0}, false);
  if (dial) draw_rope_dial(*dial, pal, probe);  // first: the picture of the whole row, then this cell's arithmetic
  for (size_t i = 0; i < e->steps.size(); ++i) draw_step(e->steps[i], static_cast<int>(i), pal);
  if (!e->note.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, to_imvec4(pal.warning));
    wrapped_text("Note: " + e->note);
    ImGui::PopStyleColor();
  }
  if (split) {
    if (state.view.inspector_to_why) ImGui::SetScrollHereY(0.0f);  // the section's top at the child's top
    state.view.inspector_to_why = false;
    draw_score_why(*split, pal, probe);
    if (why.curves) draw_rope_curves(*why.curves, pal, probe);
  }
  if (why.sources) {
    draw_model_sources(*why.sources, pal, probe);
  } else if (!why.sources_status.empty()) {
    ImGui::Separator();
    ImGui::TextColored(to_imvec4(pal.muted), "%s", why.sources_status.c_str());
  }
  if (!e->sources.empty()) {
    ImGui::Separator();
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
    ImGui::TextWrapped("Comes from (highlighted on the canvas):");
    ImGui::PopStyleColor();
    for (const attn::SourceRegion& r : e->sources) ImGui::BulletText("%s", region_text(*trace, r).c_str());
  }
  ImGui::EndChild();
  ImGui::End();
}

}  // namespace viz
