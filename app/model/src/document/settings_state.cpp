// Settings <-> AppState. Paths are stored absolute so they work from any folder.
#include "model/document/settings_state.hpp"

#include <filesystem>
#include <system_error>

namespace model {

void apply_settings(AppState& state, const Settings& settings) {
  state.view.colour = settings.colour;
  state.recent = settings.recent;
  state.files.recent_folders = settings.recent_folders;
  state.files.last_folder = settings.last_folder;
  state.files.last_export_name = settings.last_export_name;
  if (settings.ui_scale_percent > 0) state.view.ui_scale_percent = settings.ui_scale_percent;
}

SettingsTracker::SettingsTracker(const AppState& start)
    : start_colour_(start.view.colour), start_ui_scale_(start.view.ui_scale_percent) {}

Settings SettingsTracker::remembered(const AppState& state, Settings base, const std::string& open_lesson) {
  const ColourOptions& now = state.view.colour;
  // Each field: note a change from the start, then take it if ever changed.
  auto track = [](bool& changed, const auto& value, const auto& start, auto& stored) {
    changed = changed || !(value == start);
    if (changed) stored = value;
  };
  track(theme_changed_, now.theme, start_colour_.theme, base.colour.theme);
  track(signed_changed_, now.signed_map, start_colour_.signed_map, base.colour.signed_map);
  track(probability_changed_, now.probability_map, start_colour_.probability_map, base.colour.probability_map);
  track(contrast_changed_, now.contrast, start_colour_.contrast, base.colour.contrast);
  track(log_changed_, now.log_weights, start_colour_.log_weights, base.colour.log_weights);
  track(shared_changed_, now.shared_range, start_colour_.shared_range, base.colour.shared_range);
  track(ui_scale_changed_, state.view.ui_scale_percent, start_ui_scale_, base.ui_scale_percent);
  base.recent = state.recent;
  base.recent_folders = state.files.recent_folders;
  base.last_folder = state.files.last_folder;
  base.last_export_name = state.files.last_export_name;
  if (base.recent.size() > kMaxRecentFiles) base.recent.resize(kMaxRecentFiles);
  if (!open_lesson.empty()) {
    std::error_code ec;
    const std::filesystem::path p = std::filesystem::absolute(open_lesson, ec);
    if (!ec) base.last_lesson = p.lexically_normal().string();
  }
  return base;
}

}  // namespace model
