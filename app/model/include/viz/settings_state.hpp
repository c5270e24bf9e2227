// Between the settings file and AppState: what a run starts with, and what
// it remembers. The settings also hold what AppState does not (the UI size),
// which passes through unchanged.
#pragma once

#include "viz/app_state.hpp"
#include "viz/settings.hpp"

namespace viz {

void apply_settings(AppState& state, const Settings& settings);
// `base` with the colours, recent files and last lesson of `state`.
Settings remembered_settings(const AppState& state, Settings base);

}  // namespace viz
