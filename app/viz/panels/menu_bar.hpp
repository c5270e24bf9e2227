// Main menu (File, Edit, View, Help). The dialogs it opens are in dialogs.hpp.
#pragma once

#include <string>
#include <vector>

#include "feature/feature_view.hpp"
#include "panels/editor_panel.hpp"
#include "model_names.hpp"
#include "model/compare/compare.hpp"
#include "model/document/app_state.hpp"
#include "model/export/export_ui.hpp"
#include "model/hf/model_ui.hpp"
#include "model/lessons/lesson_catalogue.hpp"
#include "model/lessons/lesson_state.hpp"
#include "model/train/train_ui.hpp"

namespace viz {

// `probe` (UI tests) records where the View menu and the colour choices are.
// `views`: the features' panels, listed in the View menu.
void draw_menu_bar(AppState& state, ExportUi& export_ui, CompareState& compare, LessonState& taken, ModelUi& model_ui, TrainUi& train_ui, int n_heads, const LessonCatalogue& lessons, FeatureViews& views, WidgetProbe* probe = nullptr);

// Scenario files shipped with attnviz (assets/scenarios), sorted by name.
std::vector<std::string> bundled_scenarios(const std::string& assets_dir);

}  // namespace viz
