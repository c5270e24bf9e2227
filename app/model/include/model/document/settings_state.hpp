// Between the settings file and AppState: what a run starts with, and what
// it remembers. A run remembers what the user changes in it; what it only
// started with (a command-line --theme or --ui-scale, the UI size taken from
// the monitor) is used for that run and not saved over the user's choice.
#pragma once

#include "model/document/app_state.hpp"
#include "model/settings/settings.hpp"

namespace model {

// Colours, recent files and (when chosen) the UI size into `state`.
void apply_settings(AppState& state, const Settings& settings);

class SettingsTracker {
 public:
  SettingsTracker() = default;
  explicit SettingsTracker(const AppState& start);  // the state the run starts in

  // `base` (what was remembered) with what the user changed in `state` since
  // the start, plus its recent files and `open_lesson` (the file of the
  // lesson open now; "" for none). A field changed once is remembered from
  // then on, even when changed back.
  Settings remembered(const AppState& state, Settings base, const std::string& open_lesson = "");

 private:
  ColourOptions start_colour_;
  int start_ui_scale_ = 0;
  bool theme_changed_ = false, signed_changed_ = false, probability_changed_ = false, contrast_changed_ = false;
  bool log_changed_ = false, shared_changed_ = false, ui_scale_changed_ = false;
};

}  // namespace model
