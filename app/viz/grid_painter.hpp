// Draws one stage as a labelled grid on the canvas: title with shape, formula,
// row/column labels, the cells (per-cell rectangles for small grids, the
// colormap shader for large ones), the values (in every cell or in none), the
// masked look, and a caption with a colour legend. Reads only const data.
#pragma once

#include <imgui.h>

#include "font_set.hpp"
#include "grid_renderer.hpp"
#include "grid_textures.hpp"
#include "viz/animation.hpp"
#include "viz/cell_text_plan.hpp"
#include "viz/colormap.hpp"
#include "viz/layout.hpp"
#include "viz/view_transform.hpp"

namespace viz {

struct PaintContext {
  ImDrawList* list;
  const attn::Trace& trace;
  const attn::Scenario& scenario;  // the one the trace was computed from (captions)
  const Timeline& timeline;
  const Frame& frame;
  const ViewTransform& view;
  const FontSet& fonts;
  const GridTextures& textures;
  GridRenderer& renderer;  // queues the shader draws of large grids
  ImVec4 clip;             // the canvas, in screen pixels
  float text_scale = 1;    // > 1 in presentation mode (the layout leaves room for it)
};

ImU32 to_imgui(Rgba c);
// Colour of a cell as drawn: colormap colour, masked look, or empty while hidden.
ImU32 cell_fill(const ColorScale& scale, double value, bool blocked, float visibility);

// `numbers`: whether and how large the grid prints its values (grid_numbers.hpp).
void paint_grid(const PaintContext& ctx, const GridBox& box, const ColorScale& scale, const CellTextPlan& numbers);

// A grid a lesson question keeps hidden: title and labels, blank cells, "?".
void paint_hidden_grid(const PaintContext& ctx, const GridBox& box);

// Outlines cells [r0, r1) x [c0, c1) of a grid (sources, highlights, hover).
void paint_region(const PaintContext& ctx, const GridBox& box, int r0, int r1, int c0, int c1, ImU32 color,
                  float thickness, ImU32 fill = 0);

// Accent colour of a stage (queries purple, keys amber, values green, as in
// the articles), or 0 when it has none.
ImU32 stage_accent(const attn::Stage& stage);

}  // namespace viz
