// Keyboard shortcuts: Space, arrows and PageUp/PageDown (presentation
// clickers) drive playback; F fits; Escape unpins; M toggles mask painting;
// Ctrl+Z/Y/S/O/Q edit and file actions. Ignored while a text field has the keyboard.
#pragma once

#include "viz/app_state.hpp"
#include "viz/timeline.hpp"

namespace viz {

void handle_shortcuts(AppState& state, const Timeline& timeline);

}  // namespace viz
