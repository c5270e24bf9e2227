// The corner marks of cells past a robust colour range (Contrast::Percentile),
// drawn over either render path's cells, so a clipped value never passes for
// one at the end of the range.
#pragma once

#include "canvas/grid_painter.hpp"

namespace viz {

// Marks the visible cells of `g` whose value lies beyond `scale`'s range.
void paint_beyond_marks(const PaintContext& ctx, const GridBox& g, const attn::Stage& s, const ColourScale& scale);

}  // namespace viz
