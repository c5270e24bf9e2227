// The inspector: the core's explanation of the hovered or pinned cell, with
// every product, sum, division, mask, max/exp/sum/quotient and weight × value
// term written out with the actual numbers.
#pragma once

#include <imgui.h>

#include "model_names.hpp"
#include "model/document/app_state.hpp"
#include "attn/explain.hpp"

namespace viz {

void draw_inspector(ImVec2 pos, ImVec2 size, const attn::Trace* trace, const attn::Explanation* explanation,
                    AppState& state);

}  // namespace viz
