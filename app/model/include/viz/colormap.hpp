// Colormaps: value -> colour, pure and shared by the per-cell renderer and the
// texture shader (which samples a lookup table built from the same function),
// so both paths always agree. Shade follows magnitude, as in the articles:
// small values are light, large values dark.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "attn/trace.hpp"

namespace viz {

struct Rgba {
  std::uint8_t r = 0, g = 0, b = 0, a = 255;
  bool operator==(const Rgba& o) const { return r == o.r && g == o.g && b == o.b && a == o.a; }
};

// How a grid maps numbers to [0, 1] before colouring.
struct ColorScale {
  attn::ValueKind kind = attn::ValueKind::Signed;
  double limit = 1.0;  // Signed: |v| at which the colour saturates
};

// Picks the scale for a stage: symmetric around 0 for signed values (the
// largest finite magnitude), fixed [0, 1] for probabilities and masks.
ColorScale scale_for(const attn::Stage& stage);

// Maps a value to the normalised lookup coordinate in [0, 1]:
// Signed: 0.5 is zero; Probability/Mask: 0 is zero.
float normalised(const ColorScale& scale, double v);

// The colour at lookup coordinate u in [0, 1] for a kind.
Rgba color_at(attn::ValueKind kind, float u);

inline Rgba color_of(const ColorScale& scale, double v) {
  return color_at(scale.kind, normalised(scale, v));
}

// The colour shown for a blocked (masked) cell, drawn with hatching on top.
Rgba masked_color();

// RGBA8 lookup table of n entries for the shader, sampled from color_at().
std::vector<std::uint8_t> lookup_table(attn::ValueKind kind, int n = 256);

// Text colour that stays readable on top of a cell colour.
Rgba text_color_on(Rgba background);

}  // namespace viz
