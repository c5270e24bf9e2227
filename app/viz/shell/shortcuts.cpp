// Shortcut handling through ImGui's key state (GLFW key codes in 1.86), so
// keys typed into a text field never also drive the animation.
#include "shell/shortcuts.hpp"

#include <imgui.h>

#include <GLFW/glfw3.h>

#include "model_names.hpp"
#include "model/document/app_actions.hpp"
#include "model/lessons/navigation_keys.hpp"

namespace viz {
namespace {

bool pressed(int key, bool repeat = false) { return ImGui::IsKeyPressed(key, repeat); }

}  // namespace

void handle_shortcuts(AppState& state, LessonState& lessons, TrainUi& train, model::ClassFeature& class_session, const attn::Trace* trace,
                      const Timeline& tl) {
  const ImGuiIO& io = ImGui::GetIO();
  const bool modal = ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId | ImGuiPopupFlags_AnyPopupLevel);
  if (io.KeyCtrl && !modal) {
    // While a field has the keyboard, Ctrl+Z/Y edit its text, not the document.
    if (!io.WantTextInput) {
      if (pressed(GLFW_KEY_Z, true)) {
        if (io.KeyShift) actions::redo(state);
        else actions::undo(state);
      }
      if (pressed(GLFW_KEY_Y, true)) actions::redo(state);
    }
    if (pressed(GLFW_KEY_S)) {
      actions::save_or_ask(state);
    }
    if (pressed(GLFW_KEY_O)) actions::ask_open(state);
    if (pressed(GLFW_KEY_G)) state.view.go_to_dialog = true;
    if (pressed(GLFW_KEY_Q)) actions::request_quit(state);
    return;
  }
  if (io.WantTextInput || modal) return;
  if (pressed(GLFW_KEY_T)) train.open = !train.open;
  if (train.open) {
    // The Train view: Space trains or pauses, the arrows walk the history.
    if (pressed(GLFW_KEY_SPACE)) train.command = TrainUi::Command::Toggle;
    if (pressed(GLFW_KEY_RIGHT, true)) ++train.scrub;
    if (pressed(GLFW_KEY_LEFT, true)) --train.scrub;
    if (pressed(GLFW_KEY_ESCAPE)) train.open = false;
    return;
  }
  ViewOptions& view = state.view;
  if (pressed(GLFW_KEY_F5)) view.presentation = !view.presentation;
  // Space, the arrows, Page Up/Down and Escape: navigation_keys.hpp. A
  // clicker's "next" while the class may still answer locks the answers.
  const bool clicker = lessons.lesson.has_value();
  auto next = [&](NavKey key) {
    const bool clicker_key = clicker && (view.presentation || key == NavKey::PageDown);
    if (!(clicker_key && class_session.clicker_next())) press_nav_key(state, lessons, key, trace, tl);
  };
  if (pressed(GLFW_KEY_SPACE)) next(NavKey::Space);
  if (pressed(GLFW_KEY_RIGHT, true)) next(NavKey::Right);
  if (pressed(GLFW_KEY_PAGE_DOWN, true)) next(NavKey::PageDown);
  if (pressed(GLFW_KEY_B) || pressed(GLFW_KEY_PERIOD)) class_session.request(model::ClassCommand::Lock);
  if (pressed(GLFW_KEY_LEFT, true)) press_nav_key(state, lessons, NavKey::Left, trace, tl);
  if (pressed(GLFW_KEY_PAGE_UP, true)) press_nav_key(state, lessons, NavKey::PageUp, trace, tl);
  if (pressed(GLFW_KEY_ESCAPE)) press_nav_key(state, lessons, NavKey::Escape, trace, tl);
  if (pressed(GLFW_KEY_S)) view.spotlight = !view.spotlight;
  if (pressed(GLFW_KEY_L)) view.laser = !view.laser;
  if (pressed(GLFW_KEY_HOME)) state.clock.scrub(tl, 0);
  if (pressed(GLFW_KEY_END)) state.clock.to_end(tl);
  if (pressed(GLFW_KEY_F)) view.fit_pending = true;
  if (pressed(GLFW_KEY_M)) state.paint_mask = !state.paint_mask;
}

}  // namespace viz
