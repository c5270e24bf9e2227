// The "KV cache" window: generation one token at a time for the focused
// head. A step control (back, forward, play at one token a second), the new
// q/k/v rows, the K and V caches with the new row outlined, the score,
// weight and output rows, what the cache saves, and a check against the
// full causal trace. Reads a KvCacheModel; edits only the KvCacheChoice.
#pragma once

#include <imgui.h>

#include "model_names.hpp"
#include "model/colour/colour_options.hpp"
#include "model/kv_cache/kv_cache_model.hpp"
#include "widgets/widget_probe.hpp"

namespace viz {

// `slide`: drawn as a lesson slide's content (begin_panel), with no buttons.
void draw_kv_cache_panel(const KvCacheModel& model, KvCacheChoice& choice, const ColourOptions& colour, bool* open,
                         ImVec2 canvas_pos, ImVec2 canvas_size, WidgetProbe* probe, bool slide = false);

}  // namespace viz
