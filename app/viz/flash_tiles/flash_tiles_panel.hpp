// The "FlashAttention tiles" window: one head computed tile by tile as
// FlashAttention does it. Block sizes and the on-chip memory M are edited
// here, a stepper walks the loop, and the current tile's grids (S_ij, the
// running max, α, P, ℓ, O_i) are drawn from a FlashTilesView the session
// built; nothing is computed here.
#pragma once

#include <imgui.h>

#include "model/colour/colour_options.hpp"
#include "model/flash_tiles/flash_tiles.hpp"
#include "model_names.hpp"
#include "widgets/widget_probe.hpp"

namespace viz {

// `state` is the FlashTilesFeature's (blocks, M, tile, play, hovered cell);
// the window first opens at the right of the canvas (canvas_pos, canvas_size).
// `slide`: drawn as a lesson slide's content (begin_panel), with no fields;
// `stepper`: with it, the tile stepper stays (presenting, not in a handout).
void draw_flash_tiles_panel(const FlashTilesView& view, FlashTilesState& state, const ColourOptions& colour, bool* open,
                            ImVec2 canvas_pos, ImVec2 canvas_size, WidgetProbe* probe, bool slide = false, bool stepper = false);

}  // namespace viz
