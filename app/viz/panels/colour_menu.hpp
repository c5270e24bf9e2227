// View ▸ Colours: the colourmaps of signed values and of probabilities (each
// with a preview), the contrast (global, per grid, per row), a log scale for
// weights, one range for every head, and the theme. Edits the colour options
// in AppState only; the app recomputes the scales and textures from them.
#pragma once

#include "panels/editor_panel.hpp"
#include "model_names.hpp"
#include "model/colour/colour_options.hpp"

namespace viz {

// `probe` (UI tests) records each item's rectangle as "colours:<label>".
void draw_colour_menu(ColourOptions& colour, WidgetProbe* probe = nullptr);

}  // namespace viz
