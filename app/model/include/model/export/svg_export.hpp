// The pipeline (or one grid) as an SVG document, for print and for slides
// that scale: one <rect class="cell"> per cell filled with the grid's colour
// scale, numbers as <text>, titles, formulas, labels, legends and arrows,
// placed by the same layout model as the canvas. Pure: no GL, no ImGui.
#pragma once

#include <string>
#include <vector>

#include "attn/compute/trace.hpp"
#include "model/colour/colour_scale.hpp"
#include "model/layout/layout.hpp"
#include "model/settings/theme.hpp"

namespace model {

struct SvgOptions {
  int stage = -1;            // index into trace.stages: only that grid; -1: every grid laid out
  bool transparent = false;  // no background rectangle (else the theme's canvas colour)
  Theme theme = Theme::Light;
  double scale = 1;          // pixels per layout unit (width and height attributes)
  double margin = 16;        // layout units around what is drawn
};

// Masked cells are filled with the url(#masked) hatch pattern, never a map
// colour, so the mask reads without colour too. Numbers print in cells wide
// enough for at least a one-digit number.
std::string pipeline_svg(const attn::Trace& trace, const PipelineLayout& layout, const std::vector<ColourScale>& scales,
                         const SvgOptions& options);

// "#rrggbb", as the SVG writes fills.
std::string svg_colour(Rgba c);

}  // namespace model
