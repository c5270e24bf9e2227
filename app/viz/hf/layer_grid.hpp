// A layers × columns map of signed numbers in the Model view (a head's
// direct logit part, what patching a head brings back): one row per layer,
// a header of column names, each cell coloured on a range symmetric about
// 0 with its number printed when it fits. Columns are narrowed to fit the
// width, never below a few characters; a wider map scrolls.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "gl/theme_style.hpp"
#include "model/colour/colourmap.hpp"
#include "widgets/widget_probe.hpp"

namespace viz {

struct LayerGrid {
  std::vector<std::string> columns;         // "H0".."H11", "MLP", or the tokens
  std::vector<std::vector<double>> values;  // [layer][column]
  double range = 0;                         // colours span −range..range; 0: the largest |value|
  std::string probe_prefix;                 // each cell's rectangle as prefix + "_L_C"
  double zero_below = 0;                    // |value| under this prints as 0 (float32's noise)
};

// The cell under the mouse, and the one clicked this frame (layer, column).
struct LayerGridHit {
  std::optional<std::pair<int, int>> hovered, clicked;
};

LayerGridHit draw_layer_grid(const LayerGrid& grid, ColourmapId map, const ThemePalette& pal, WidgetProbe* probe);

}  // namespace viz
