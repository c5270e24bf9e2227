// Value tables for every input matrix (X, the context, each head's W_Q, W_K,
// W_V, and W_O). Drag a number or double-click to type it; the grids update
// while dragging and the whole drag becomes one undo step.
#include <algorithm>
#include <string>

#include "app_actions.hpp"
#include "attn/explain.hpp"
#include "editor_panel.hpp"

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

// `symbol` names a cell in tooltips ("X", "W_Q"); `head` is "head 1" or empty.
void matrix_table(const char* id, const std::string& name, const std::string& symbol, const std::string& head,
                  attn::Mat& m, const std::vector<std::string>* row_labels, AppState& state, WidgetProbe* probe) {
  const int rows = static_cast<int>(m.rows()), cols = static_cast<int>(m.cols());
  const int shown_cols = std::min(cols, kMaxColumns);
  ImGui::Text("%s  %d×%d", name.c_str(), rows, cols);
  if (cols > shown_cols) {
    ImGui::SameLine();
    ImGui::TextDisabled("(first %d columns; Alt+drag on the canvas edits any cell)", shown_cols);
  }
  const float row_h = ImGui::GetFrameHeight() + 2;
  const float height = row_h * static_cast<float>(std::min(rows, 10) + 1) + 6;
  const ImGuiTableFlags flags = ImGuiTableFlags_ScrollX | ImGuiTableFlags_ScrollY | ImGuiTableFlags_BordersInnerV |
                                ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit;
  if (!ImGui::BeginTable(id, shown_cols + 1, flags, {0, height})) return;
  ImGui::TableSetupScrollFreeze(1, 1);
  ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthFixed);
  for (int c = 0; c < shown_cols; ++c)
    ImGui::TableSetupColumn(std::to_string(c).c_str(), ImGuiTableColumnFlags_WidthFixed, ImGui::GetFontSize() * 3.4f);
  ImGui::TableHeadersRow();
  ImGuiListClipper clipper;
  clipper.Begin(rows);
  while (clipper.Step())
    for (int r = clipper.DisplayStart; r < clipper.DisplayEnd; ++r) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      const bool labelled = row_labels && r < static_cast<int>(row_labels->size());
      ImGui::TextUnformatted(labelled ? (*row_labels)[static_cast<size_t>(r)].c_str() : std::to_string(r).c_str());
      for (int c = 0; c < shown_cols; ++c) {
        ImGui::TableNextColumn();
        ImGui::PushID(r * kMaxColumns + c);
        ImGui::SetNextItemWidth(-1);
        if (ImGui::DragScalar("##v", ImGuiDataType_Double, &m(r, c), 0.01f, nullptr, nullptr, "%.3g")) {
          actions::changed(state, false);
          state.edit_in_progress = true;
        }
        note_drag_edit(state);
        if (probe) {
          const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
          (*probe)[std::string(id) + "[" + std::to_string(r) + "," + std::to_string(c) + "]"] = ImVec4(a.x, a.y, b.x, b.y);
        }
        if (ImGui::IsItemHovered() && !ImGui::IsItemActive())
          ImGui::SetTooltip("%s\nDrag to change, double-click to type", cell_tooltip(symbol, head, r, c, row_labels, m(r, c)).c_str());
        ImGui::PopID();
      }
    }
  ImGui::EndTable();
}

}  // namespace

void draw_matrix_editors(AppState& state, WidgetProbe* probe) {
  attn::Scenario& s = state.doc.scenario;
  const bool sinusoidal = s.positional == attn::Positional::Sinusoidal;
  matrix_table("x", sinusoidal ? "X (embeddings, before + PE)" : "X (one row per token)", "X", "", s.x, &s.tokens, state,
               probe);
  if (s.context) matrix_table("context", "context C", "C", "", *s.context, &s.context_tokens, state, probe);
  for (size_t h = 0; h < s.heads.size(); ++h) {
    const std::string suffix = s.heads.size() > 1 ? " · head " + std::to_string(h) : "";
    const std::string head = s.heads.size() > 1 ? "head " + std::to_string(h) : "";
    const std::string node = "weights" + suffix;
    ImGui::PushID(static_cast<int>(h));
    if (ImGui::TreeNodeEx(node.c_str(), h == 0 ? ImGuiTreeNodeFlags_DefaultOpen : 0)) {
      attn::HeadWeights& w = s.heads[h];
      matrix_table("w_q", "W_Q" + suffix, "W_Q", head, w.w_q, nullptr, state, probe);
      matrix_table("w_k", "W_K" + suffix, "W_K", head, w.w_k, nullptr, state, probe);
      matrix_table("w_v", "W_V" + suffix, "W_V", head, w.w_v, nullptr, state, probe);
      ImGui::TreePop();
    }
    ImGui::PopID();
  }
  if (s.w_o) matrix_table("w_o", "W_O", "W_O", "", *s.w_o, nullptr, state, probe);
}

}  // namespace viz
