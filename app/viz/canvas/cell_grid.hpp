// A small matrix drawn cell by cell with ImGui's draw list: the compare and
// Train views' grids (the canvas draws its own, with textures and animation).
// Cells print their value when they have room; blocked or non-finite cells
// get the canvas's masked look; a hidden grid shows only its shape and "?".
#pragma once

#include <optional>
#include <string>
#include <utility>

#include <imgui.h>

#include "attn/base/matrix.hpp"
#include "widgets/widget_probe.hpp"
#include "gl/font_set.hpp"
#include "gl/theme_style.hpp"
#include "model_names.hpp"
#include "model/colour/colour_scale.hpp"

namespace viz {

struct GridSpot {
  // One grid: where its rectangle goes in --dump-layout, its title, values,
  // blocked cells (either matrix may be null) and colours.
  const char* probe;     // name in --dump-layout's widgets
  bool hidden;           // a lesson question hides the numbers
  std::string title;
  const attn::Mat* values;
  const attn::BoolMat* blocked_a;
  const attn::BoolMat* blocked_b;
  const ColourScale* scale;
};

// One grid at `origin` with square cells of `cell` px; returns the hovered
// cell. Numbers are printed at `min_text_px` or larger (kProjectorMinPx on a
// projector), in the cells they fit. The probe gets the grid, its first cell
// ("NAME:cell") and, when numbers are printed, one of them ("NAME:digits").
std::optional<std::pair<int, int>> draw_grid(const GridSpot& g, ImVec2 origin, float cell, const FontSet& fonts,
                                             const ThemePalette& pal, WidgetProbe* probe, float min_text_px = 9.0f);

}  // namespace viz
