// Which grids print their numbers at this zoom and frame, measured with the
// canvas fonts. The painter, the canvas hint and --dump-layout all ask here,
// so what the dump reports is what the canvas draws.
#pragma once

#include <vector>

#include "gl/font_set.hpp"
#include "model_names.hpp"
#include "model/animation/animation.hpp"
#include "model/layout/cell_text_plan.hpp"
#include "model/layout/layout.hpp"
#include "model/layout/view_transform.hpp"

namespace viz {

struct NumberInputs {
  const attn::Trace& trace;
  const Frame& frame;
  const FontSet& fonts;
  const ViewTransform& view;
  bool show_values = true;  // the "numbers" switch
  float text_scale = 1;
  double min_px = kMinReadablePx;  // kProjectorMinPx while presenting
};

// Width of text drawn px pixels tall in the font the canvas uses at that size.
TextWidth canvas_text_width(const FontSet& fonts);

// A grid's cell on screen, in pixels.
CellSize screen_cell(const GridBox& g, const ViewTransform& view);

// Cells [r0, r1) x [c0, c1) of a grid.
struct CellRange {
  int r0 = 0, r1 = 0, c0 = 0, c1 = 0;
  bool empty() const { return r1 <= r0 || c1 <= c0; }
};

// The cells of g that overlap `clip` (screen pixels).
CellRange cells_in(const GridBox& g, const ViewTransform& view, const Rect& clip);

// The plan of one grid, from its final values plus, while its step runs, the
// values shown mid-step (so every drawn cell has a number that fits). Small
// grids are planned over all their cells, so panning never changes their
// text; large ones (drawn as a texture, up to millions of cells) over the
// cells inside `clip`. No numbers when "numbers" is switched off.
CellTextPlan grid_number_plan(const NumberInputs& in, const GridBox& g, const Rect& clip);

// grid_number_plan of every grid whose cells overlap `clip` (screen pixels),
// in layout order; grids outside are not planned (no numbers).
std::vector<CellTextPlan> plan_numbers(const NumberInputs& in, const PipelineLayout& layout, const Rect& clip);

// True when a grid in view shows no numbers although zooming in would show
// them: the canvas hint then says so.
bool numbers_hidden_by_zoom(const NumberInputs& in, const PipelineLayout& layout, const std::vector<CellTextPlan>& plans,
                            const Rect& clip);

}  // namespace viz
