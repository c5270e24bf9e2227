// The "Why scale" window: a d_k slider, the histograms of q·k and q·k/√d_k
// over random unit-variance vectors with their variances printed, and the
// softmax of a row of 8 scores each way, so saturation is visible as d_k grows.
#pragma once

#include <imgui.h>

#include "widgets/widget_probe.hpp"
#include "model_names.hpp"
#include "model/colour/colourmap.hpp"
#include "model/explore/why_scale_model.hpp"

namespace viz {

// Edits `inputs` (the model recomputes next frame); draws `result`. The
// window first appears in the left half of the canvas (canvas_pos, canvas_size).
// Weights are shaded with `probability_map`, as on the canvas.
// `slide`: drawn as a lesson slide's content (begin_panel), the sliders said, not offered.
void draw_why_scale_panel(WhyScaleInputs& inputs, const WhyScaleResult& result, bool* open, ImVec2 canvas_pos,
                          ImVec2 canvas_size, WidgetProbe* probe, ColourmapId probability_map = ColourmapId::SingleHue, bool slide = false);

}  // namespace viz
