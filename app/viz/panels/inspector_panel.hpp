// The inspector: the core's explanation of the hovered or pinned cell, with
// every product, sum, division, mask, max/exp/sum/quotient and weight × value
// term written out with the actual numbers.
#pragma once

#include <imgui.h>

#include "model_names.hpp"
#include "model/document/app_state.hpp"
#include "attn/explain/explain.hpp"
#include <string>

#include "attn/why/score_split.hpp"
#include "attn/why/source_split.hpp"
#include "model/explore/rope_curves.hpp"
#include "model/explore/rope_dial.hpp"
#include "widgets/widget_probe.hpp"

namespace viz {

// `dial`: the RoPE dial of the explained cell's row (a rotated query or key), or null.
// Why the inspected score has its value: split by dimension and rotary pair
// (`split`) and, for a real model's layer, by source in its residual stream
// (`sources`, or `sources_status` while it is made).
struct InspectedWhy {
  const attn::ScoreSplit* split = nullptr;
  const model::RopeCurves* curves = nullptr;  // with RoPE: each pair's term over the distances
  const attn::SourceSplit* sources = nullptr;
  std::string sources_status;
};

void draw_inspector(ImVec2 pos, ImVec2 size, const attn::Trace* trace, const attn::Explanation* explanation,
                    const model::RopeDial* dial, const InspectedWhy& why, AppState& state, WidgetProbe* probe);

}  // namespace viz
