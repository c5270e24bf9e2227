// Headless outputs for scripts and tests: a PNG of the back buffer, a JSON
// dump of the state (scenario + a few results) and one of the layout (every
// grid's cells and whether it prints numbers, and some widgets, in screen pixels).
#pragma once

#include <string>

#include "viz/app_state.hpp"
#include "panels/editor_panel.hpp"
#include "canvas/grid_numbers.hpp"
#include "viz/layout.hpp"
#include "viz/trace_model.hpp"

namespace viz {

// Reads GL_BACK (call before swapping) and writes an RGB PNG; false on failure.
bool write_screenshot(const std::string& path, int width, int height);

// `train`: the Train view's state (App::train_dump), reported as "train".
void write_state_dump(const std::string& path, const AppState& state, const TraceModel& model,
                      const nlohmann::json& train = nullptr);
// Changes whenever something the state dump reports changes (cheap: no scenario).
std::string state_dump_key(const AppState& state, const TraceModel& model);

// Per grid also whether it prints numbers and at what text size, and whether
// the canvas hint says numbers are hidden (all as the canvas decides).
void write_layout_dump(const std::string& path, const PipelineLayout& layout, const NumberInputs& numbers,
                       const Rect& canvas, const WidgetProbe& widgets, int width, int height, int texture_uploads = -1,
                       int prepared_uploads = -1);
// The same dump as text (a slide's layout, written beside the slide).
std::string layout_dump_text(const PipelineLayout& layout, const NumberInputs& numbers, const Rect& canvas,
                             const WidgetProbe& widgets, int width, int height, int texture_uploads = -1,
                             int prepared_uploads = -1);

}  // namespace viz
