// One line of text cut with "…" to a width in the current ImGui font: the
// compare view's titles and labels, the slide's note of what it left out.
// (The canvas's grid_painter fits its own text at a given pixel size.)
#pragma once

#include <string>

namespace viz {

// `label`, cut at whole UTF-8 characters with "…" until it fits `width` pixels.
std::string fit_label(const std::string& label, float width);

}  // namespace viz
