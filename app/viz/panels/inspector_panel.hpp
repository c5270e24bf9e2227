// The inspector: the core's explanation of the hovered or pinned cell, with
// every product, sum, division, mask, max/exp/sum/quotient and weight × value
// term written out with the actual numbers.
#pragma once

#include <imgui.h>

#include "model_names.hpp"
#include "model/document/app_state.hpp"
#include "attn/explain/explain.hpp"
#include "attn/why/score_split.hpp"
#include "model/explore/rope_dial.hpp"
#include "widgets/widget_probe.hpp"

namespace viz {

// `dial`: the RoPE dial of the explained cell's row (a rotated query or key), or null.
// `split`: why the cell's score has its value (a score or weight), or null.
void draw_inspector(ImVec2 pos, ImVec2 size, const attn::Trace* trace, const attn::Explanation* explanation,
                    const model::RopeDial* dial, const attn::ScoreSplit* split, AppState& state, WidgetProbe* probe);

}  // namespace viz
