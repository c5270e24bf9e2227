// Draws one stage as a labelled grid on the canvas: title with shape, formula,
// row/column labels, the cells (per-cell rectangles for small grids, the
// colourmap shader for large ones), the values (in every cell or in none), the
// masked look, and a caption with a colour legend. Reads only const data.
#pragma once

#include <imgui.h>

#include "gl/font_set.hpp"
#include "canvas/grid_renderer.hpp"
#include "canvas/grid_textures.hpp"
#include "model_names.hpp"
#include "model/animation/animation.hpp"
#include "model/layout/cell_text_plan.hpp"
#include "gl/theme_style.hpp"
#include "model/colour/colour_scale.hpp"
#include "model/layout/axis_pins.hpp"
#include "model/layout/layout.hpp"
#include "model/layout/view_transform.hpp"

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
  const ThemePalette& palette;
  ImVec4 clip;             // the canvas, in screen pixels
  float text_scale = 1;    // > 1 in presentation mode (the layout leaves room for it)
};

// Colour of a cell as drawn: colourmap colour, masked look, or empty while hidden.
ImU32 cell_fill(const ColourScale& scale, int row, double value, bool blocked, float visibility, const ThemePalette& palette);

// A colour bar from u0 to u1 of `map` in [a, b], for legends.
void paint_colour_bar(ImDrawList* list, ImVec2 a, ImVec2 b, ColourmapId map, float u0 = 0, float u1 = 1);
// The masked look (fill and diagonal lines) over [a, b].
void paint_masked(ImDrawList* list, ImVec2 a, ImVec2 b, const ThemePalette& palette);

// `numbers`: whether and how large the grid prints its values (grid_numbers.hpp).
void paint_grid(const PaintContext& ctx, const GridBox& box, const ColourScale& scale, const CellTextPlan& numbers);

// A grid a lesson question keeps hidden: title and labels, blank cells, "?".
// `asked_row` >= 0: the "?" sits on that row, the one the question asks about.
void paint_hidden_grid(const PaintContext& ctx, const GridBox& box, int asked_row = -1);

// Outlines cells [r0, r1) x [c0, c1) of a grid (sources, highlights, hover).
void paint_region(const PaintContext& ctx, const GridBox& box, int r0, int r1, int c0, int c1, ImU32 colour,
                  float thickness, ImU32 fill = 0);

// Zoomed into a grid past its edges: its row and column labels in strips
// pinned to the left and top of `area` (axis_pins.hpp), drawn over the cells.
// Returns which axes were pinned.
AxisPins paint_pinned_labels(const PaintContext& ctx, const GridBox& box, const Rect& area);

// Accent colour of a stage (queries purple, keys amber, values green, as in
// the articles), or 0 when it has none.
ImU32 stage_accent(const attn::Stage& stage, const ThemePalette& palette);

}  // namespace viz
