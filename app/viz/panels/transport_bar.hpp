// The playback bar under the canvas: step back, play/pause, step forward,
// the timeline slider, speed, step granularity, which heads to show, and the
// colour legends. Edits AppState (clock and view options) only.
#pragma once

#include <imgui.h>

#include "widgets/widget_probe.hpp"
#include "model_names.hpp"
#include "model/document/app_state.hpp"
#include "model/trace/trace_model.hpp"
#include "canvas/colour_legends.hpp"

namespace viz {

// `probe` (--dump-layout) gets "transport_time", the time field, and
// "transport_time_text", the width its text needs (in its third number).
void draw_transport(ImVec2 pos, ImVec2 size, const TraceModel& model, AppState& state, WidgetProbe* probe);

}  // namespace viz
