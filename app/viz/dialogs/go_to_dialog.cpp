// The Go to cell dialog (go_to_dialog.hpp).
#include "dialogs/go_to_dialog.hpp"

#include <algorithm>
#include <string>

#include <imgui.h>

namespace viz {
namespace {

std::string stage_label(const attn::Stage& s) {
  return s.title + (s.head >= 0 ? " · head " + std::to_string(s.head) : "");
}

std::string axis_label(const std::vector<std::string>& labels, int i) {
  return i >= 0 && i < static_cast<int>(labels.size()) && !labels[static_cast<size_t>(i)].empty()
             ? " (" + labels[static_cast<size_t>(i)] + ")"
             : "";
}

}  // namespace

void draw_go_to_dialog(AppState& state, const attn::Trace* trace, WidgetProbe* probe) {
  const char* id = "Go to cell";
  std::optional<CellRef>& draft = state.view.go_to_draft;
  if (state.view.go_to_dialog && !ImGui::IsPopupOpen(id)) {
    ImGui::OpenPopup(id);
    // Start from the cell being explained, else the last cell asked for
    // while the trace has it, else the weights of the head on screen.
    if (const std::optional<CellRef>& cell = state.inspected()) draft = *cell;
    else if (!draft || (trace && trace->index_of(draft->stage) < 0))
      draft = CellRef{{attn::StageKind::weights, std::max(state.view.head, 0)}, 0, 0};
  }
  const float font = ImGui::GetFontSize();
  ImGui::SetNextWindowSize({font * 26, 0}, ImGuiCond_Appearing);
  if (!ImGui::BeginPopupModal(id, nullptr)) return;
  CellRef& d = *draft;  // set above when the popup opened
  const int index = trace ? trace->index_of(d.stage) : -1;
  const attn::Stage* s = index >= 0 ? &trace->stages[static_cast<size_t>(index)] : nullptr;
  ImGui::SetNextItemWidth(-1);
  if (ImGui::BeginCombo("##go-grid", s ? stage_label(*s).c_str() : "choose a grid")) {
    for (size_t i = 0; trace && i < trace->stages.size(); ++i)
      if (ImGui::Selectable((stage_label(trace->stages[i]) + "##" + std::to_string(i)).c_str(), static_cast<int>(i) == index))
        d.stage = trace->stages[i].ref();
    ImGui::EndCombo();
  }
  probe_item(probe, "go_to_grid");
  const int rows = s ? static_cast<int>(s->value.rows()) : 1, cols = s ? static_cast<int>(s->value.cols()) : 1;
  if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
  ImGui::SetNextItemWidth(font * 7);
  ImGui::InputInt("row", &d.row, 0);  // typed: no +/- buttons to be hit by mistake
  probe_item(probe, "go_to_row");
  if (s) d.row = std::clamp(d.row, 0, rows - 1);  // (a big scene's grid may not be computed yet)
  if (s) {
    ImGui::SameLine();
    ImGui::TextDisabled("of %d%s", rows, axis_label(s->row_labels, d.row).c_str());
  }
  ImGui::SetNextItemWidth(font * 7);
  const bool enter = ImGui::InputInt("column", &d.col, 0, 0, ImGuiInputTextFlags_EnterReturnsTrue);
  probe_item(probe, "go_to_col");
  if (s) d.col = std::clamp(d.col, 0, cols - 1);
  if (s) {
    ImGui::SameLine();
    ImGui::TextDisabled("of %d%s", cols, axis_label(s->col_labels, d.col).c_str());
  }
  ImGui::BeginDisabled(!s);
  const bool go = ImGui::Button("Go", {font * 6, 0}) || (enter && s);
  probe_item(probe, "go_to_ok");
  ImGui::EndDisabled();
  ImGui::SameLine();
  const bool cancel = ImGui::Button("Cancel", {font * 6, 0}) || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape));
  if (go || cancel) {
    if (go) {
      state.view.go_to.emplace();
      state.view.go_to->cell = d;
      state.pinned = d;  // the inspector explains the cell gone to
      // One head on screen: show the head the cell is in.
      if (state.view.head >= 0 && d.stage.head >= 0 && d.stage.head != state.view.head) state.view.head = d.stage.head;
    }
    state.view.go_to_dialog = false;
    ImGui::CloseCurrentPopup();
  }
  ImGui::EndPopup();
}

}  // namespace viz
