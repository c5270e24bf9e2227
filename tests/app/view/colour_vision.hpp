// Test helper: how a colour looks to someone with deuteranopia (no working
// green cones), by the Machado, Oliveira & Fernandes (2009) model at severity
// 1.0, applied in linear RGB. Used to check the colour-blind-safe maps.
#pragma once

#include <algorithm>

#include "model/colour/colour_science.hpp"

namespace test_colour {

inline model::Rgba deuteranopia(model::Rgba c) {
  constexpr double m[3][3] = {{0.367322, 0.860646, -0.227968}, {0.280085, 0.672501, 0.047413}, {-0.011820, 0.042940, 0.968881}};
  const double in[3] = {model::linear_from_srgb(c.r), model::linear_from_srgb(c.g), model::linear_from_srgb(c.b)};
  double out[3];
  for (int i = 0; i < 3; ++i) out[i] = m[i][0] * in[0] + m[i][1] * in[1] + m[i][2] * in[2];
  return {model::srgb_from_linear(out[0]), model::srgb_from_linear(out[1]), model::srgb_from_linear(out[2]), 255};
}

}  // namespace test_colour
