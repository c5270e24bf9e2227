// Corner marks of cells past a robust colour range (beyond_marks.hpp).
#include "canvas/beyond_marks.hpp"

#include <algorithm>

#include "canvas/grid_numbers.hpp"
#include "gl/theme_style.hpp"
#include "model/colour/grid_texels.hpp"

namespace viz {

// A small corner triangle in the colour numbers take on that cell. Cells
// under 6 px show none (a zoomed-out picture would be all marks).
void paint_beyond_marks(const PaintContext& ctx, const GridBox& g, const attn::Stage& s, const ColourScale& scale) {
  if (!scale.robust) return;
  const CellSize cell = screen_cell(g, ctx.view);
  if (std::min(cell.w, cell.h) < 6) return;
  const Rect cells = ctx.view.to_screen(g.cells);
  const CellRange range = cells_in(g, ctx.view, {ctx.clip.x, ctx.clip.y, ctx.clip.z, ctx.clip.w});
  const float side = static_cast<float>(std::min(cell.w, cell.h) * 0.3);
  const double gap = cell.w >= 6 ? 1.0 : 0.0;
  for (int r = range.r0; r < range.r1; ++r)
    for (int c = range.c0; c < range.c1; ++c) {
      if (cell_visibility(ctx.trace, ctx.timeline, ctx.frame, g.stage, r, c) < 0.5f) continue;
      const double v = displayed_value(ctx.trace, ctx.frame, g.stage, r, c);
      if (masked_look(s, r, c, v) || !beyond(scale, r, v)) continue;
      const float x1 = static_cast<float>(cells.x0 + (c + 1) * cell.w - gap), y0 = static_cast<float>(cells.y0 + r * cell.h);
      ctx.list->AddTriangleFilled({x1 - side, y0}, {x1, y0}, {x1, y0 + side}, to_imgui(text_colour_on(colour_of(scale, r, v))));
    }
}

}  // namespace viz
