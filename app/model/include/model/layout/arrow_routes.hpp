// Data-flow arrows between the grids of a layout, routed once per layout in
// world units: orthogonal polylines through the gaps between columns, grids,
// lanes and bands, never across a grid they do not connect, so a student can
// follow each one by eye. The canvas only draws the finished polylines.
#pragma once

#include <utility>
#include <vector>

#include "model/layout/layout.hpp"

namespace model {

// Which arrows a layout shows, as (from, to) grid indices: one for each input
// of every laid-out stage whose input is laid out too, except that a product
// with a parameter reads the way the articles draw it, "X -> W_Q -> Q": its
// data inputs point at the parameter's grid and the parameter at the result.
std::vector<std::pair<int, int>> arrow_edges(const attn::Trace& trace, const PipelineLayout& layout);

// Routes every arrow_edges() arrow into layout.arrows (replacing any there)
// and grows layout.bounds to hold them. Uses the gaps of `options`.
void route_arrows(const attn::Trace& trace, const LayoutOptions& options, PipelineLayout& layout);

}  // namespace model
