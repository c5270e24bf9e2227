// Value tables for every input matrix (X, the context, each head's W_Q, W_K,
// W_V, W_O and its bias b_O). Drag a number (live, one undo step per drag) or double-click
// to type it (applied on Enter). When the scenario cannot be computed, the
// tables open on the values behind the overflow and mark them red.
#include <algorithm>
#include <optional>
#include <string>

#include <imgui.h>
#include <imgui_internal.h>

#include "gl/theme_style.hpp"
#include "widgets/typed_fields.hpp"
#include "model_names.hpp"
#include "model/document/app_actions.hpp"
#include "attn/text/format_number.hpp"
#include "panels/editor_panel.hpp"

namespace viz {
namespace {

constexpr int kMaxColumns = 40;  // ImGui tables hold 64 columns; wider matrices are cut

// "X[0,0] (token "the", feature 0) = 1", "W_Q[2,1] (head 1) = 0.3".
std::string cell_tooltip(const std::string& symbol, const std::string& head, int r, int c,
                         const std::vector<std::string>* row_labels, double v) {
  std::string t = symbol + "[" + std::to_string(r) + "," + std::to_string(c) + "]";
  if (row_labels && r < static_cast<int>(row_labels->size()))
    t += " (token \"" + (*row_labels)[static_cast<size_t>(r)] + "\", feature " + std::to_string(c) + ")";
  else if (!head.empty())
    t += " (" + head + ")";
  return t + " = " + attn::format_number(v, 6);
}

// What a table needs besides its matrix: how to name cells, and which of
// its cells to mark (and scroll to) because the scenario overflowed there.
struct TableInfo {
  const char* id;           // "x", "w_q"...: the table's widget id (and the layout dump's)
  std::optional<attn::StageKind> matrix;  // which input it is (InputCell::matrix); none: W_O's bias
  std::string name;         // heading, e.g. "W_Q · head 1"
  std::string symbol;       // "X", "W_Q"
  int head = -1;            // -1 for shared matrices
  const std::vector<std::string>* row_labels = nullptr;
};

bool offending_at(const std::vector<InputCell>& bad, const TableInfo& t, int r, int c) {
  return std::any_of(bad.begin(), bad.end(), [&](const InputCell& b) {
    return b.matrix == t.matrix && b.head == t.head && b.row == r && b.col == c;
  });
}

// A Ref, so a vector (W_O's bias) is edited in place as a one-row table.
void matrix_table(const TableInfo& t, Eigen::Ref<attn::Mat> m, AppState& state, const EditorContext& ctx) {
  const int rows = static_cast<int>(m.rows()), cols = static_cast<int>(m.cols());
  const int shown_cols = std::min(cols, kMaxColumns);
  const std::string head = t.head >= 0 && state.doc.scenario.heads.size() > 1 ? "head " + std::to_string(t.head) : "";
  int first_bad = -1;
  for (const InputCell& b : ctx.offending)
    if (b.matrix == t.matrix && b.head == t.head && (first_bad < 0 || b.row < first_bad)) first_bad = b.row;
  // Wrapped: a narrow panel would cut "X (one row per token)" at its edge.
  ImGui::TextWrapped("%s  %d×%d", t.name.c_str(), rows, cols);
  if (cols > shown_cols) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("(first %d columns; Alt+drag on the canvas edits any cell)", shown_cols);
    ImGui::PopStyleColor();
  }
  const float row_h = ImGui::GetFrameHeight() + 2;
  const float height = row_h * static_cast<float>(std::min(rows, 10) + 1) + 6;
  const ImGuiTableFlags flags = ImGuiTableFlags_ScrollX | ImGuiTableFlags_ScrollY | ImGuiTableFlags_BordersInnerV |
                                ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit;
  if (!ImGui::BeginTable(t.id, shown_cols + 1, flags, {0, height})) return;
  // The wheel scrolls the Scenario panel, even over a table of more rows
  // than it shows (its scroll bar, or the keyboard, scrolls the table):
  // otherwise scrolling down the panel stopped at the first tall table.
  ImGui::GetCurrentWindow()->Flags |= ImGuiWindowFlags_NoScrollWithMouse;
  ImGui::TableSetupScrollFreeze(1, 1);
  ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthFixed);
  for (int c = 0; c < shown_cols; ++c)
    ImGui::TableSetupColumn(std::to_string(c).c_str(), ImGuiTableColumnFlags_WidthFixed, ImGui::GetFontSize() * 3.4f);
  ImGui::TableHeadersRow();
  ImGuiListClipper clipper;
  clipper.Begin(rows);
  if (first_bad >= 0 && ctx.reveal) clipper.ForceDisplayRangeByIndices(first_bad, first_bad + 1);
  while (clipper.Step())
    for (int r = clipper.DisplayStart; r < clipper.DisplayEnd; ++r) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      const bool labelled = t.row_labels && r < static_cast<int>(t.row_labels->size());
      ImGui::TextUnformatted(labelled ? (*t.row_labels)[static_cast<size_t>(r)].c_str() : std::to_string(r).c_str());
      if (r == first_bad && ctx.reveal) ImGui::SetScrollHereY(0.3f);
      for (int c = 0; c < shown_cols; ++c) {
        ImGui::TableNextColumn();
        const bool bad = offending_at(ctx.offending, t, r, c);
        if (bad) ImGui::TableSetBgColor(ImGuiTableBgTarget_CellBg, to_imgui(palette(state.view.colour.theme).offending_cell));
        ImGui::PushID(r * kMaxColumns + c);
        ImGui::SetNextItemWidth(-1);
        value_cell(state, "##v", &m(r, c), 0.01f, "%.3g");
        if (ctx.probe) {
          const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
          (*ctx.probe)[std::string(t.id) + (t.head > 0 ? std::to_string(t.head) : "") + "[" + std::to_string(r) + "," +
                       std::to_string(c) + "]"] = ImVec4(a.x, a.y, b.x, b.y);
        }
        if (ImGui::IsItemHovered() && !ImGui::IsItemActive())
          ImGui::SetTooltip("%s%s\nDrag to change, double-click to type (Enter applies)",
                            cell_tooltip(t.symbol, head, r, c, t.row_labels, m(r, c)).c_str(),
                            bad ? "\nToo large: the computation overflows here" : "");
        ImGui::PopID();
      }
    }
  ImGui::EndTable();
}

}  // namespace

void draw_matrix_editors(AppState& state, const EditorContext& ctx) {
  attn::Scenario& s = state.doc.scenario;
  const bool sinusoidal = s.positional == attn::Positional::Sinusoidal;
  matrix_table({"x", attn::StageKind::x, sinusoidal ? "X (embeddings, before + PE)" : "X (one row per token)", "X", -1, &s.tokens}, s.x, state, ctx);
  if (s.context) matrix_table({"context", attn::StageKind::context, "context C", "C", -1, &s.context_tokens}, *s.context, state, ctx);
  for (size_t h = 0; h < s.heads.size(); ++h) {
    const int head = static_cast<int>(h);
    const std::string suffix = s.heads.size() > 1 ? " · head " + std::to_string(h) : "";
    const std::string node = "weights" + suffix;
    const bool bad = std::any_of(ctx.offending.begin(), ctx.offending.end(), [&](const InputCell& b) { return b.head == head; });
    if (bad && ctx.reveal) ImGui::SetNextItemOpen(true);
    ImGui::PushID(head);
    if (ImGui::TreeNodeEx(node.c_str(), h == 0 ? ImGuiTreeNodeFlags_DefaultOpen : 0)) {
      attn::HeadWeights& w = s.heads[h];
      matrix_table({"w_q", attn::StageKind::w_q, "W_Q" + suffix, "W_Q", head}, w.w_q, state, ctx);
      if (w.w_k.size() != 0) {
        matrix_table({"w_k", attn::StageKind::w_k, "W_K" + suffix, "W_K", head}, w.w_k, state, ctx);
        matrix_table({"w_v", attn::StageKind::w_v, "W_V" + suffix, "W_V", head}, w.w_v, state, ctx);
      } else {  // grouped-query attention: the group's first head holds them
        const attn::Dims d = attn::dims_of(s);
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
        ImGui::TextWrapped("W_K, W_V: shared, edit them in head %d", d.kv_leader(head));
        ImGui::PopStyleColor();
      }
      ImGui::TreePop();
    }
    ImGui::PopID();
  }
  if (s.w_o) matrix_table({"w_o", attn::StageKind::w_o, "W_O", "W_O", -1}, *s.w_o, state, ctx);
  if (s.output_bias.size() > 0)
    matrix_table({"output_bias", std::nullopt, "b_O (W_O's bias, added to every output row)", "b_O", -1},
                 Eigen::Map<attn::Mat>(s.output_bias.data(), 1, s.output_bias.size()), state, ctx);
}

}  // namespace viz
