// Main menu (File, Edit, View, Help) and the dialogs it opens: open/save with
// a path field listing the bundled scenarios and recent files, the "discard
// unsaved changes?" question, error messages and the keyboard help.
#pragma once

#include <string>
#include <vector>

#include "app_state.hpp"

namespace viz {

void draw_menu_bar(AppState& state, int n_heads);
void draw_dialogs(AppState& state);

// Opens `path` now, or asks first when there are unsaved edits.
void request_open(AppState& state, const std::string& path);

// Scenario files shipped with attnviz (assets/scenarios), sorted by name.
std::vector<std::string> bundled_scenarios();

}  // namespace viz
