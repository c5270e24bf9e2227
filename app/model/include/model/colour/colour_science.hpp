// CIE colour measures for sRGB colours (D65): lightness L* and L*a*b*. Maps
// are judged by them (lightness must run one way in a sequential map, and
// match on both sides of a diverging one), and text on a cell picks its
// colour by the cell's lightness.
#pragma once

#include "model/colour/colourmap.hpp"

namespace model {

struct Lab {
  double l = 0, a = 0, b = 0;
};

// sRGB channel (0..255) to linear light (0..1), and back (rounded, clamped).
double linear_from_srgb(std::uint8_t channel);
std::uint8_t srgb_from_linear(double linear);

Lab cie_lab(Rgba c);
double cie_lightness(Rgba c);  // L* in [0, 100]
// WCAG 2 relative luminance (0..1) and contrast ratio (1..21; text wants 4.5).
double relative_luminance(Rgba c);
double contrast_ratio(Rgba x, Rgba y);
// CIE76 colour difference: about 2.3 is just noticeable, 10+ is clearly different.
double delta_e(Rgba x, Rgba y);

}  // namespace model
