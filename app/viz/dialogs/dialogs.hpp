// The app's dialogs: open / save-as / open lesson (the desktop's chooser
// where there is one, else a path field over the in-app browser, with the
// recent files), the Save / Discard / Cancel question about
// unsaved edits, error messages, and the keys-and-mouse help window.
//
// Dear ImGui 1.86 asserts when a window is created after a modal opened in
// the same frame (fixed upstream in 1.87, ocornut/imgui#4920), so the frame
// draws every ordinary window first and draw_modals() last.
#pragma once

#include "widgets/widget_probe.hpp"
#include "model_names.hpp"
#include "model/document/app_state.hpp"
#include "model/lessons/lesson_state.hpp"

namespace viz {

void draw_help_window(AppState& state);  // an ordinary window
void draw_modals(AppState& state, LessonState& lessons, WidgetProbe* probe);  // after every other window of the frame

}  // namespace viz
