// The playback bar under the canvas: step back, play/pause, step forward,
// the timeline slider, speed, step granularity, which heads to show, and the
// colour legends. Edits AppState (clock and view options) only.
#pragma once

#include <imgui.h>

#include "panels/editor_panel.hpp"
#include "model_names.hpp"
#include "model/document/app_state.hpp"
#include "model/trace/trace_model.hpp"

namespace viz {

// `probe` (--dump-layout) gets "transport_time", the time field, and
// "transport_time_text", the width its text needs (in its third number).
void draw_transport(ImVec2 pos, ImVec2 size, const TraceModel& model, AppState& state, WidgetProbe* probe);

// The legends of both chosen colormaps and the masked look, on one line,
// and how wide that line is.
void colour_legends(const ColourOptions& colour);
float colour_legends_width();

}  // namespace viz
