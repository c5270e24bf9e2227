// The "Convex hull" window: for a scene with d_v = 2, the values as labelled
// points, their hull, every output as a point inside it, and lines from the
// selected output to the values, as thick as its attention weights. Reads a
// HullView built per trace, so it follows value edits live.
#pragma once

#include <imgui.h>

#include "widgets/widget_probe.hpp"
#include "model_names.hpp"
#include "model/explore/hull_view.hpp"

namespace viz {

// `choices` holds the head (when the canvas shows all heads) and the
// selected output, both edited here; `head_follows_view` when the canvas
// shows one head, which the plot then uses. The window first appears in the
// right half of the canvas (canvas_pos, canvas_size).
// `slide`: drawn as a lesson slide's content (begin_panel), the choices said, not offered.
void draw_hull_panel(const HullView& view, HullModel& choices, int n_heads, bool head_follows_view, bool* open,
                     ImVec2 canvas_pos, ImVec2 canvas_size, WidgetProbe* probe, bool slide = false);

}  // namespace viz
