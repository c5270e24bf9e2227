// A slide's strip for why the step's inspected score has its value: the
// inspector is a tool for the desk and stays off slides, so a step that
// pins a score (a lesson's "inspect") shows its parts here instead, under
// the grid they come from, large enough for the back of the room.
#pragma once

#include <imgui.h>

#include "attn/why/score_split.hpp"
#include "model/document/app_state.hpp"
#include "widgets/widget_probe.hpp"

namespace viz {

// `split`: null while the explanation is still being made (nothing is drawn).
void draw_slide_why(ImVec2 pos, ImVec2 size, const attn::ScoreSplit* split, const model::AppState& state,
                    WidgetProbe* probe);

}  // namespace viz
