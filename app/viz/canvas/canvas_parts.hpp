// Internal pieces of the canvas, split by feature so each file stays small:
// mouse input (canvas_input.cpp) and overlays (canvas_overlays.cpp).
#pragma once

#include "canvas/canvas_view.hpp"
#include "canvas/grid_painter.hpp"

namespace viz {

// Pan, zoom, hover, pin, Alt+drag value edits and mask painting. Cells are
// found only inside `grid_area` (the strips above and below hold overlays).
void handle_canvas_input(ImVec2 pos, ImVec2 size, const Rect& grid_area, const CanvasData& data, AppState& state);

// Where grids are drawn: the canvas minus the status strip at the top
// (caption, errors, notices) and the hint and legend strip at the bottom, so
// no overlay ever covers a grid title or the top row of cells.
Rect grid_area(ImVec2 pos, ImVec2 size, const CanvasData& data, const AppState& state);

// At cell granularity: the operands of the product being added right now.
void paint_current_term(const PaintContext& ctx, const PipelineLayout& layout, const Frame& frame);

// Height of the status panel at the top of a canvas of this width (caption,
// product strip, notes, and the error when the scenario does not compute), so
// the fit can keep the top row of grids clear of it.
float status_panel_height(const CanvasData& data, float canvas_width);

// Status caption, product strip, error banner, zoom buttons and hints; the
// hint says so when a grid in view hides its numbers at this zoom.
void paint_overlays(ImVec2 pos, ImVec2 size, const CanvasData& data, AppState& state, bool numbers_hidden);
// "Computing your edit: 40%" with a progress bar and Cancel (sets state.cancel_compute).
void computing_line(const TraceModel& model, AppState& state, float width, const ThemePalette& pal);
// After Cancel: what the grids show instead, and Compute again (sets state.compute_again).
void cancelled_line(const TraceModel& model, AppState& state, const ThemePalette& pal);

// Stages whose cells are (query, key) pairs, where painting edits the mask.
bool maskable(const attn::Stage& stage);

}  // namespace viz
