// Keyboard shortcuts: Space, arrows and PageUp/PageDown (presentation
// clickers) drive playback, or a lesson (navigation_keys.hpp); F fits;
// Escape leaves presentation, else unpins; M toggles mask painting;
// Ctrl+Z/Y/S/O/Q edit and file actions. Ignored while a text field has the keyboard.
// During a class session, the clicker's "next" first locks the class's
// answers, and B or '.' (a clicker's blank-screen key) lock them too.
#pragma once

#include "model_names.hpp"
#include "model/document/app_state.hpp"
#include "model/classroom/class_feature.hpp"
#include "model/lessons/lesson_state.hpp"
#include "model/train/train_ui.hpp"
#include "model/animation/timeline.hpp"

namespace viz {

// `trace`: the document's, or null while none is computed.
void handle_shortcuts(AppState& state, LessonState& lessons, TrainUi& train, model::ClassFeature& class_session, const attn::Trace* trace,
                      const Timeline& timeline);

}  // namespace viz
