// Headless outputs for scripts and tests: a PNG of the back buffer, a JSON
// dump of the state (scenario + a few results) and one of the layout (every
// grid's cells and whether it prints numbers, and some widgets, in screen pixels).
#pragma once

#include <string>

#include "model_names.hpp"
#include "model/document/app_state.hpp"
#include "widgets/widget_probe.hpp"
#include "canvas/grid_numbers.hpp"
#include "model/colour/colour_scale.hpp"
#include "model/layout/layout.hpp"
#include "model/trace/trace_model.hpp"

namespace viz {

// Reads GL_BACK (call before swapping) and writes an RGB PNG: "" or what
// went wrong, naming the file.
std::string write_screenshot(const std::string& path, int width, int height);

// `train`: the Train view's state (App::train_dump), reported as "train".
// `extra`'s keys (a panel's state, e.g. "kv_cache") join the dump's top level.
void write_state_dump(const std::string& path, const AppState& state, const TraceModel& model,
                      const nlohmann::json& train = nullptr, const nlohmann::json& extra = nullptr);
// Changes whenever something the state dump reports changes (cheap: no scenario).
std::string state_dump_key(const AppState& state, const TraceModel& model);

// Writes a test dump whole (through a temporary file and a rename), so a
// test never reads half of it; a dump that cannot be written is skipped.
void write_dump(const std::string& path, const std::string& text);

// The layout dump (--dump-layout): every grid's cells on screen, and per
// grid also whether it prints numbers and at what text size, whether its axis
// labels are pinned to the view's edges (`pinned`), and whether the canvas
// hint says numbers are hidden (all as the canvas decides). With `scales`
// (parallel to the trace's stages), each grid's legend too, and up to 16 of
// its cells in view that lie past a robust range (drawn marked).
std::string layout_dump_text(const PipelineLayout& layout, const NumberInputs& numbers, const Rect& canvas,
                             const std::vector<ViewOptions::PinnedAxes>& pinned, const WidgetProbe& widgets, int width,
                             int height, int texture_uploads = -1, int prepared_uploads = -1,
                             const std::vector<ColourScale>* scales = nullptr);

}  // namespace viz
