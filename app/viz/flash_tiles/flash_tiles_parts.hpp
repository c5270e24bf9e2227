// Pieces the FlashAttention tiles panel and its slide both draw with: a
// tile grid's cells, the hovered cell's explanation, the whole score matrix
// with the tile outlined, and the slow-memory counts. Internal to explore/.
#pragma once

#include <imgui.h>

#include <string>
#include <utility>

#include "model/colour/colour_options.hpp"
#include "model/flash_tiles/flash_tiles.hpp"
#include "model_names.hpp"
#include "widgets/widget_probe.hpp"

namespace viz::flash_parts {

// Cells of one grid at the cursor, `cell` pixels each; numbers printed when
// they fit. Returns the cell under the mouse as (row, col), or (-1, -1).
std::pair<int, int> draw_flash_cells(const FlashGrid& g, ImVec2 cell, const ColourOptions& colour, const std::string& id,
                                     WidgetProbe* probe, const std::string& probe_name);
// The core's reason this head has no tiles, in the error colour.
void draw_flash_refusal(const FlashTilesView& view, const ColourOptions& colour, WidgetProbe* probe);
// A tooltip with the core's explanation of cell (r, c) of `g`; nothing when r < 0.
void explain_hovered_cell(const FlashGrid& g, const FlashTilesView& view, FlashTilesState& state, int r, int c);
// The whole (n_q, n_k) score matrix in a square of `side` pixels, the
// current tile outlined; `titled`: with a line saying so above it.
void draw_flash_overview(const FlashTilesView& view, const ColourOptions& colour, float side, WidgetProbe* probe, bool titled);
// The slow-memory (HBM) reads and writes: standard, these tiles, the paper's.
void draw_flash_traffic(const FlashTilesView& view, WidgetProbe* probe);

// The buttons < tile, tile > and play; `label`: then where the loop is.
void draw_flash_stepper(const FlashTilesView& view, FlashTilesState& state, WidgetProbe* probe, bool label);

// The panel as a lesson slide's content (flash_tiles_slide.cpp): no fields,
// the tile's grids in two columns, everything inside the window; the
// stepper's buttons only with `stepper` (presenting, not in a handout).
void draw_flash_tiles_slide(const FlashTilesView& view, FlashTilesState& state, const ColourOptions& colour, WidgetProbe* probe,
                            bool stepper);

}  // namespace viz::flash_parts
