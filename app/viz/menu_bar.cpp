// Menus and modal dialogs. Opening a file while edits are unsaved asks first;
// failed opens and saves show the reason and keep the current document.
#include "menu_bar.hpp"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include <imgui.h>
#include <imgui_stdlib.h>

#include "app_actions.hpp"

namespace viz {
namespace {

namespace fs = std::filesystem;

void file_list(AppState& state, const char* heading, const std::vector<std::string>& paths) {
  if (paths.empty()) return;
  ImGui::TextDisabled("%s", heading);
  for (const std::string& p : paths) {
    const std::string name = fs::path(p).filename().string();
    if (ImGui::Selectable((name + "##" + p).c_str(), state.dialog_path == p, ImGuiSelectableFlags_AllowDoubleClick)) {
      state.dialog_path = p;
      if (ImGui::IsMouseDoubleClicked(0) && state.open_dialog) {
        request_open(state, p);
        state.open_dialog = false;
        ImGui::CloseCurrentPopup();
      }
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", p.c_str());
  }
}

void path_dialog(AppState& state, bool saving) {
  const char* id = saving ? "Save scenario as" : "Open scenario";
  bool& flag = saving ? state.save_dialog : state.open_dialog;
  if (flag && !ImGui::IsPopupOpen(id)) ImGui::OpenPopup(id);
  ImGui::SetNextWindowSize({ImGui::GetFontSize() * 34, 0}, ImGuiCond_Appearing);
  if (!ImGui::BeginPopupModal(id, nullptr)) return;
  ImGui::TextUnformatted("Path:");
  ImGui::SetNextItemWidth(-1);
  if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
  const bool enter = ImGui::InputText("##path", &state.dialog_path, ImGuiInputTextFlags_EnterReturnsTrue);
  if (!saving) {
    ImGui::BeginChild("files", {0, ImGui::GetFontSize() * 16}, true);
    file_list(state, "recent", state.recent);
    file_list(state, "bundled scenarios", bundled_scenarios());
    ImGui::EndChild();
  }
  const bool ok = ImGui::Button(saving ? "Save" : "Open", {ImGui::GetFontSize() * 6, 0}) || enter;
  ImGui::SameLine();
  const bool cancel = ImGui::Button("Cancel", {ImGui::GetFontSize() * 6, 0}) || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape));
  if ((ok && !state.dialog_path.empty()) || cancel) {
    if (ok && saving) actions::save(state, state.dialog_path);
    else if (ok) request_open(state, state.dialog_path);
    flag = false;
    ImGui::CloseCurrentPopup();
  }
  ImGui::EndPopup();
}

void discard_dialog(AppState& state) {
  const char* id = "Discard unsaved changes?";
  if (state.confirm_discard && !ImGui::IsPopupOpen(id)) ImGui::OpenPopup(id);
  if (!ImGui::BeginPopupModal(id, nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return;
  ImGui::TextUnformatted("This scenario has edits that are not saved.");
  const bool opening = !state.pending_open.empty() || state.pending_builtin;
  ImGui::TextUnformatted(opening ? "Discard them and open the other scenario?" : "Discard them and quit?");
  ImGui::Spacing();
  auto done = [&] {
    state.confirm_discard = false;
    state.pending_open.clear();
    state.pending_builtin = false;
    ImGui::CloseCurrentPopup();
  };
  if (ImGui::Button("Discard")) {
    if (!state.pending_open.empty()) actions::open(state, state.pending_open);
    else if (state.pending_builtin) actions::open_builtin(state);
    else state.quit = true;
    done();
  }
  ImGui::SameLine();
  if (!state.path.empty() && ImGui::Button("Save first")) {
    if (actions::save(state, state.path)) {
      if (!state.pending_open.empty()) actions::open(state, state.pending_open);
      else if (state.pending_builtin) actions::open_builtin(state);
      else state.quit = true;
    }
    done();
  }
  ImGui::SameLine();
  if (ImGui::Button("Cancel") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) done();
  ImGui::EndPopup();
}

void message_dialog(AppState& state) {
  const char* id = "attnviz";
  if (!state.message.empty() && !ImGui::IsPopupOpen(id)) ImGui::OpenPopup(id);
  ImGui::SetNextWindowSize({ImGui::GetFontSize() * 30, 0}, ImGuiCond_Appearing);
  if (!ImGui::BeginPopupModal(id, nullptr)) return;
  ImGui::TextWrapped("%s", state.message.c_str());
  if (ImGui::Button("OK", {ImGui::GetFontSize() * 6, 0})) {
    state.message.clear();
    ImGui::CloseCurrentPopup();
  }
  ImGui::EndPopup();
}

void help_window(AppState& state) {
  if (!state.show_help) return;
  ImGui::SetNextWindowSize({ImGui::GetFontSize() * 30, 0}, ImGuiCond_Appearing);
  if (ImGui::Begin("Keys and mouse", &state.show_help, ImGuiWindowFlags_NoSavedSettings)) {
    ImGui::BulletText("Space: play / pause");
    ImGui::BulletText("Right arrow, Page Down: next step;  Left arrow, Page Up: previous step");
    ImGui::BulletText("Home / End: start / everything computed");
    ImGui::BulletText("F: fit the pipeline to the window;  M: paint the mask with the mouse");
    ImGui::BulletText("Mouse wheel: zoom;  right or middle drag: pan");
    ImGui::BulletText("Hover a cell: its sources light up and the inspector explains it");
    ImGui::BulletText("Click a cell: pin it;  click again or Escape: unpin");
    ImGui::BulletText("Alt + drag up/down on X, C, W_Q, W_K, W_V or W_O: change that value");
    ImGui::BulletText("Ctrl+Z / Ctrl+Y: undo / redo;  Ctrl+O / Ctrl+S: open / save");
  }
  ImGui::End();
}

}  // namespace

std::vector<std::string> bundled_scenarios() {
  std::vector<std::string> out;
  for (const fs::path& dir : {fs::path(ATTNVIZ_ASSETS_DIR) / "scenarios", fs::path("assets") / "scenarios"}) {
    std::error_code ec;
    for (const fs::directory_entry& e : fs::directory_iterator(dir, ec))
      if (e.path().extension() == ".json") out.push_back(e.path().string());
    if (!out.empty()) break;
  }
  std::sort(out.begin(), out.end());
  return out;
}

void request_open(AppState& state, const std::string& path) {
  if (state.dirty()) {
    state.pending_open = path;
    state.confirm_discard = true;
  } else {
    actions::open(state, path);
  }
}

void draw_menu_bar(AppState& state, int n_heads) {
  if (!ImGui::BeginMainMenuBar()) return;
  if (ImGui::BeginMenu("File")) {
    if (ImGui::MenuItem("Open...", "Ctrl+O")) state.open_dialog = true;
    if (ImGui::BeginMenu("Open recent", !state.recent.empty())) {
      for (const std::string& p : state.recent)
        if (ImGui::MenuItem(p.c_str())) request_open(state, p);
      ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("Examples")) {
      for (const std::string& p : bundled_scenarios())
        if (ImGui::MenuItem(std::filesystem::path(p).stem().string().c_str())) request_open(state, p);
      ImGui::EndMenu();
    }
    if (ImGui::MenuItem("Built-in first lesson")) {
      if (state.dirty()) state.pending_builtin = state.confirm_discard = true;
      else actions::open_builtin(state);
    }
    ImGui::Separator();
    if (ImGui::MenuItem("Save", "Ctrl+S")) {
      if (state.path.empty()) state.save_dialog = true;
      else actions::save(state, state.path);
    }
    if (ImGui::MenuItem("Save as...")) {
      state.dialog_path = state.path;
      state.save_dialog = true;
    }
    ImGui::Separator();
    if (ImGui::MenuItem("Quit", "Ctrl+Q")) actions::request_quit(state);
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("Edit")) {
    if (ImGui::MenuItem("Undo", "Ctrl+Z", false, state.history.can_undo())) actions::undo(state);
    if (ImGui::MenuItem("Redo", "Ctrl+Y", false, state.history.can_redo())) actions::redo(state);
    ImGui::Separator();
    if (ImGui::MenuItem("Randomise values")) actions::randomise(state);
    if (ImGui::MenuItem("Reset to the opened scenario")) actions::reset(state);
    ImGui::MenuItem("Paint mask with the mouse", "M", &state.paint_mask);
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("View")) {
    if (ImGui::MenuItem("Fit to window", "F")) state.view.fit_pending = true;
    ImGui::MenuItem("Numbers in cells", nullptr, &state.view.show_values);
    ImGui::MenuItem("Presentation (large text)", nullptr, &state.view.presentation);
    ImGui::MenuItem("Scenario editor", nullptr, &state.view.show_editor);
    ImGui::MenuItem("Inspector", nullptr, &state.view.show_inspector);
    ImGui::Separator();
    if (ImGui::MenuItem("All heads side by side", nullptr, state.view.head < 0)) state.view.head = -1, state.view.fit_pending = true;
    for (int h = 0; h < n_heads; ++h)
      if (ImGui::MenuItem(("Head " + std::to_string(h)).c_str(), nullptr, state.view.head == h))
        state.view.head = h, state.view.fit_pending = true;
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("Help")) {
    ImGui::MenuItem("Keys and mouse", nullptr, &state.show_help);
    ImGui::EndMenu();
  }
  const std::string where = state.path.empty() ? "built-in lesson" : state.path;
  ImGui::SameLine(ImGui::GetWindowWidth() - ImGui::CalcTextSize(where.c_str()).x - ImGui::GetFontSize() * 5);
  ImGui::TextDisabled("%s%s", where.c_str(), state.dirty() ? "  • edited" : "");
  ImGui::EndMainMenuBar();
}

void draw_dialogs(AppState& state) {
  path_dialog(state, false);
  path_dialog(state, true);
  discard_dialog(state);
  message_dialog(state);
  help_window(state);
}

}  // namespace viz
