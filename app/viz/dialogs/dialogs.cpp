// Modal dialogs and the help window. Dialogs only ask; what an answer does
// (open, save, continue after saving) is in viz::actions, where it is tested.
#include "dialogs/dialogs.hpp"

#include <algorithm>
#include <ctime>
#include <optional>
#include <filesystem>

#include <imgui.h>
#include <imgui_stdlib.h>

#include "dialogs/file_browser_view.hpp"
#include "widgets/text_item.hpp"
#include "model_names.hpp"
#include "model/document/app_actions.hpp"
#include "model/document/disk_actions.hpp"
#include "model/lessons/lesson_opening.hpp"

namespace viz {
namespace {

namespace fs = std::filesystem;

bool escape_pressed() { return ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape)); }

void file_list(AppState& state, const char* heading, const std::vector<std::string>& paths) {
  if (paths.empty()) return;
  ImGui::TextDisabled("%s", heading);
  for (const std::string& p : paths) {
    const std::string name = fs::path(p).filename().string();
    if (text_selectable(name, p, state.dialog_path == p, ImGuiSelectableFlags_AllowDoubleClick)) {
      state.dialog_path = p;
      if (ImGui::IsMouseDoubleClicked(0) && state.open_dialog) {
        actions::request(state, {PendingAction::Kind::Open, p});
        state.open_dialog = false;
        ImGui::CloseCurrentPopup();
      }
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", p.c_str());
  }
}

enum class PathKind { OpenScenario, SaveScenario, OpenLesson };

void path_dialog(AppState& state, LessonState& lessons, PathKind kind, WidgetProbe* probe) {
  const bool saving = kind == PathKind::SaveScenario;
  const char* id = saving ? "Save scenario as" : kind == PathKind::OpenLesson ? "Open lesson" : "Open scenario";
  const files::Dialog d = saving ? files::Dialog::SaveScenario : kind == PathKind::OpenLesson ? files::Dialog::OpenLesson
                                                                                              : files::Dialog::OpenScenario;
  bool& flag = saving ? state.save_dialog : kind == PathKind::OpenLesson ? state.open_lesson_dialog : state.open_dialog;
  if (flag && !ImGui::IsPopupOpen(id)) {
    ImGui::OpenPopup(id);
    // Start in the user's folder (the one this dialog last used), never
    // wherever attnviz was started.
    if (state.dialog_path.empty()) state.dialog_path = files::start_path(state.files, d, saving ? "scenario.json" : "") + (saving ? "" : "/");
    begin_file_dialog(state, d, state.dialog_path, true);
  }
  ImGui::SetNextWindowSize({ImGui::GetFontSize() * 40, 0}, ImGuiCond_Appearing);
  if (!ImGui::BeginPopupModal(id, nullptr)) return;
  bool ok = false, cancel = false;
  const DesktopStep desktop = desktop_chooser_part(state, d, state.dialog_path, probe);
  if (desktop == DesktopStep::Chosen) ok = true;
  else if (desktop == DesktopStep::Cancelled) cancel = true;
  else if (desktop == DesktopStep::Waiting) cancel = ImGui::Button("Cancel", {ImGui::GetFontSize() * 6, 0}) || escape_pressed();
  else {
    if (saving && state.pending.kind != PendingAction::Kind::None)
      ImGui::TextWrapped("Save your edits first; then attnviz carries on.");
    ImGui::TextUnformatted("Path:");
    ImGui::SetNextItemWidth(-1);
    if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
    const bool enter = ImGui::InputText("##path", &state.dialog_path, ImGuiInputTextFlags_EnterReturnsTrue);
    if (kind == PathKind::OpenScenario && (!state.recent.empty())) {
      ImGui::BeginChild("files", {0, ImGui::GetFontSize() * 5}, true);
      file_list(state, "recent", state.recent);
      ImGui::EndChild();
    }
    const bool double_clicked = draw_file_browser(state, d, state.dialog_path, probe);
    ok = ImGui::Button(saving ? "Save" : "Open", {ImGui::GetFontSize() * 6, 0}) || enter || double_clicked;
    ImGui::SameLine();
    cancel = ImGui::Button("Cancel", {ImGui::GetFontSize() * 6, 0}) || escape_pressed();
    // A folder is gone into, not opened.
    std::error_code ec;
    if (ok && fs::is_directory(state.dialog_path, ec)) {
      if (state.dialog_path.back() != '/') state.dialog_path += '/';
      ok = false;
    }
  }
  if ((ok && !state.dialog_path.empty()) || cancel) {
    if (ok) files::chosen(state.files, d, state.dialog_path);
    if (saving) actions::save_as_closed(state, ok && actions::save(state, state.dialog_path));
    else if (ok && kind == PathKind::OpenLesson) actions::request_lesson(lessons, state.dialog_path);
    else if (ok) actions::request(state, {PendingAction::Kind::Open, state.dialog_path});
    flag = false;
    end_file_dialog(state);
    ImGui::CloseCurrentPopup();
  }
  ImGui::EndPopup();
}

void discard_dialog(AppState& state, WidgetProbe* probe) {
  const char* id = "Unsaved edits";
  if (state.confirm_discard && !ImGui::IsPopupOpen(id)) ImGui::OpenPopup(id);
  if (!ImGui::BeginPopupModal(id, nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return;
  const std::string name = state.path.empty() ? "The built-in lesson" : fs::path(state.path).filename().string();
  ImGui::Text("%s has edits that are not saved.", name.c_str());
  const bool quitting = state.pending.kind == PendingAction::Kind::Quit;
  ImGui::TextUnformatted(quitting ? "Save them before quitting?" : "Save them before opening another scenario?");
  ImGui::Spacing();
  const float w = ImGui::GetFontSize() * 6;
  std::optional<actions::Answer> answer;
  if (ImGui::Button(state.path.empty() ? "Save as..." : "Save", {w, 0})) answer = actions::Answer::Save;
  ImGui::SameLine();
  if (ImGui::Button("Discard", {w, 0})) answer = actions::Answer::Discard;
  probe_item(probe, "discard_discard");
  ImGui::SameLine();
  if (ImGui::Button("Cancel", {w, 0}) || escape_pressed()) answer = actions::Answer::Cancel;
  if (answer) {
    actions::answer(state, *answer);
    ImGui::CloseCurrentPopup();
  }
  ImGui::EndPopup();
}

void restore_dialog(AppState& state) {
  const char* id = "Restore unsaved work?";
  if (state.restore_offer && !ImGui::IsPopupOpen(id)) ImGui::OpenPopup(id);
  ImGui::SetNextWindowSize({ImGui::GetFontSize() * 30, 0}, ImGuiCond_Appearing);
  if (!ImGui::BeginPopupModal(id, nullptr)) return;
  const AutosaveRecord& r = *state.restore_offer;
  char when[64] = "";
  const std::time_t t = static_cast<std::time_t>(r.time);
  std::strftime(when, sizeof when, "%Y-%m-%d %H:%M", std::localtime(&t));
  ImGui::TextWrapped("attnviz did not close normally last time. It kept your unsaved edits to %s (%s).",
                     r.label.c_str(), when);
  ImGui::Spacing();
  const float w = ImGui::GetFontSize() * 7;
  if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
  if (ImGui::Button("Restore", {w, 0}) || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter))) {
    actions::restore_autosave(state, true);
    ImGui::CloseCurrentPopup();
  } else {
    ImGui::SameLine();
    if (ImGui::Button("Discard", {w, 0})) {
      actions::restore_autosave(state, false);
      ImGui::CloseCurrentPopup();
    }
  }
  ImGui::EndPopup();
}

// Save found the open file changed by someone else since it was read.
void save_conflict_dialog(AppState& state, WidgetProbe* probe) {
  const char* id = "File changed on disk";
  if (state.disk.save_conflict && !ImGui::IsPopupOpen(id)) ImGui::OpenPopup(id);
  const float font = ImGui::GetFontSize();
  ImGui::SetNextWindowSize({std::min(font * 34, ImGui::GetIO().DisplaySize.x * 0.95f), 0}, ImGuiCond_Appearing);
  if (!ImGui::BeginPopupModal(id, nullptr)) return;
  const std::string name = fs::path(state.path).filename().string();
  ImGui::TextWrapped("%s was changed on disk since you opened it, by another window or program. Saving now would "
                     "replace that version with yours.", name.c_str());
  ImGui::TextWrapped("Reload and compare reads the file's version and shows it beside yours; Ctrl+Z then puts yours back.");
  ImGui::Spacing();
  std::optional<actions::ConflictAnswer> answer;
  const struct {
    const char* label;
    const char* probe;
    actions::ConflictAnswer answer;
  } buttons[] = {{"Overwrite", "conflict_overwrite", actions::ConflictAnswer::Overwrite},
                 {"Save as...", "conflict_save_as", actions::ConflictAnswer::SaveAs},
                 {"Reload and compare", "conflict_reload", actions::ConflictAnswer::ReloadAndCompare},
                 {"Cancel", "conflict_cancel", actions::ConflictAnswer::Cancel}};
  const ImGuiStyle& style = ImGui::GetStyle();
  float x = 0;
  for (const auto& b : buttons) {
    // Side by side while they fit, else on the next row.
    const float w = ImGui::CalcTextSize(b.label).x + 2 * style.FramePadding.x;
    if (x > 0 && x + style.ItemSpacing.x + w <= ImGui::GetContentRegionAvail().x) ImGui::SameLine();
    else x = 0;
    if (ImGui::Button(b.label)) answer = b.answer;
    probe_item(probe, b.probe);
    x += (x > 0 ? style.ItemSpacing.x : 0) + w;
  }
  if (escape_pressed()) answer = actions::ConflictAnswer::Cancel;
  if (answer) {
    ImGui::CloseCurrentPopup();
    actions::answer_save_conflict(state, *answer);
  }
  ImGui::EndPopup();
}

// A message longer than the window scrolls inside it, with OK always in
// view (a 60 KB message made a blank full-height dialog with no button).
void message_dialog(AppState& state, WidgetProbe* probe) {
  const char* id = "attnviz";
  if (!state.message.empty() && !ImGui::IsPopupOpen(id)) ImGui::OpenPopup(id);
  const float font = ImGui::GetFontSize();
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  ImGui::SetNextWindowSize({std::min(font * 30, display.x * 0.95f), 0}, ImGuiCond_Appearing);
  ImGui::SetNextWindowSizeConstraints({font * 10, 0}, {display.x * 0.95f, display.y * 0.8f});
  if (!ImGui::BeginPopupModal(id, nullptr)) return;
  const ImGuiStyle& style = ImGui::GetStyle();
  // Past a few thousand characters a message is not read, and one draw list
  // holds at most 65,536 vertices (a 60 KB message ended the app).
  constexpr size_t kShown = 4000;
  std::string shown = state.message;
  if (shown.size() > kShown) {
    size_t cut = kShown;
    while (cut > 0 && (static_cast<unsigned char>(shown[cut]) & 0xC0) == 0x80) --cut;  // not inside a UTF-8 character
    shown = shown.substr(0, cut) + "...\n(shortened: " + std::to_string(state.message.size()) + " characters in all)";
  }
  const float text_h = ImGui::CalcTextSize(shown.c_str(), nullptr, false, ImGui::GetContentRegionAvail().x).y;
  const float room = display.y * 0.8f - ImGui::GetFrameHeight() * 2 - style.WindowPadding.y * 2 - style.ItemSpacing.y * 3;
  ImGui::BeginChild("##message", {0, std::max(font, std::min(text_h + style.ItemSpacing.y, room))});
  ImGui::TextWrapped("%s", shown.c_str());
  ImGui::EndChild();
  ImGui::Spacing();
  if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
  const bool ok = ImGui::Button("OK", {ImGui::GetFontSize() * 6, 0});
  probe_item(probe, "message_ok");
  if (ok || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter)) || escape_pressed()) {
    state.message.clear();
    ImGui::CloseCurrentPopup();
  }
  ImGui::EndPopup();
}

}  // namespace

void draw_help_window(AppState& state) {
  if (!state.show_help) return;
  const float font = ImGui::GetFontSize();
  ImGui::SetNextWindowSize({font * 36, 0}, ImGuiCond_Appearing);
  ImGui::SetNextWindowSizeConstraints({font * 20, 0}, {font * 60, ImGui::GetIO().DisplaySize.y * 0.9f});
  if (ImGui::Begin("Keys and mouse", &state.show_help, ImGuiWindowFlags_NoSavedSettings)) {
    // Wrapped (BulletText never wraps in 1.86), so no line is cut off
    // however narrow the window.
    for (const char* line :
         {"Space: play / pause", "Right arrow or Page Down: next step.  Left arrow or Page Up: previous step",
          "Home / End: the start / everything computed", "F: fit the pipeline to the window",
          "M: paint the mask with the mouse", "Mouse wheel: zoom.  Right or middle drag: pan",
          "Hover a cell: its sources light up and the inspector explains it",
          "Click a cell: pin it.  Click it again or press Escape: unpin",
          "Alt + drag up or down on X, C, W_Q, W_K, W_V or W_O: change that value",
          "Typed values and shapes apply when you press Enter or leave the field",
          "Ctrl+Z / Ctrl+Y: undo / redo.  Ctrl+O / Ctrl+S: open / save"})
    {
      ImGui::Bullet();
      ImGui::TextWrapped("%s", line);
    }
  }
  ImGui::End();
}

void draw_modals(AppState& state, LessonState& lessons, WidgetProbe* probe) {
  path_dialog(state, lessons, PathKind::OpenScenario, probe);
  path_dialog(state, lessons, PathKind::SaveScenario, probe);
  path_dialog(state, lessons, PathKind::OpenLesson, probe);
  discard_dialog(state, probe);
  save_conflict_dialog(state, probe);
  message_dialog(state, probe);
  restore_dialog(state);
}

}  // namespace viz
