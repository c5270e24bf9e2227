// View ▸ Colours: the colormaps of signed values and of probabilities (each
// with a preview), the contrast (global, per grid, per row), a log scale for
// weights, one range for every head, and the theme. Edits the colour options
// in AppState only; the app recomputes the scales and textures from them.
#pragma once

#include "viz/colour_options.hpp"

namespace viz {

void draw_colour_menu(ColourOptions& colour);

}  // namespace viz
