// The legends of both chosen colourmaps and the masked look, on one line,
// and how wide that line is.
#pragma once

#include "model_names.hpp"
#include "model/colour/colour_options.hpp"

namespace viz {

void colour_legends(const ColourOptions& colour);
float colour_legends_width();

}  // namespace viz
