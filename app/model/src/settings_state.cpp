// Settings <-> AppState. Paths are stored absolute so they work from any folder.
#include "viz/settings_state.hpp"

#include <filesystem>
#include <system_error>

namespace viz {

void apply_settings(AppState& state, const Settings& settings) {
  state.view.colour = settings.colour;
  state.recent = settings.recent;
}

Settings remembered_settings(const AppState& state, Settings base) {
  base.colour = state.view.colour;
  base.recent = state.recent;
  if (base.recent.size() > kMaxRecentFiles) base.recent.resize(kMaxRecentFiles);
  if (state.lesson && !state.lesson->lesson().path.empty()) {
    std::error_code ec;
    const std::filesystem::path p = std::filesystem::absolute(state.lesson->lesson().path, ec);
    if (!ec) base.last_lesson = p.lexically_normal().string();
  }
  return base;
}

}  // namespace viz
