// One small matrix of the "KV cache" panel as ImDrawList cells: coloured
// with the app's colour maps, blocked (−∞) cells hatched grey as on the
// canvas, one row outlined in the accent colour (the row new this step) and
// rows the query cannot see faded. Small grids only (a step's rows).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <imgui.h>

#include "attn/compute/trace.hpp"
#include "model_names.hpp"
#include "model/colour/colour_options.hpp"
#include "model/kv_cache/kv_cache_choice.hpp"
#include "widgets/widget_probe.hpp"

namespace viz {

struct KvGrid {
  const attn::Stage* stage = nullptr;
  std::string probe;                    // "kv:grid:k_cache"
  std::vector<std::string> row_labels;  // drawn left of the rows; empty: none
  int new_row = -1;                     // outlined in the accent colour
  std::vector<bool> faded_rows;         // rows the query does not see (sliding window)
  std::vector<bool> blocked_cols;       // columns the mask blocks (one-row grids), hatched
};

// Draws the grid at the cursor with cells `cell` big, records its rectangle
// under `grid.probe`, and returns the cell under the mouse.
std::optional<KvCacheChoice::Hover> draw_kv_grid(const KvGrid& grid, ImVec2 cell, float label_width, const ColourOptions& colour,
                                                 WidgetProbe* probe);

// Cells no wider than `widest`, narrower when `cols` of them would not fit in `room`.
ImVec2 kv_cell_size(int cols, float room, float widest);

}  // namespace viz
