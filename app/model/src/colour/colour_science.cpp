// sRGB -> linear -> XYZ (D65) -> L*a*b*, with the sRGB and CIE constants.
#include "model/colour/colour_science.hpp"

#include <algorithm>
#include <cmath>

namespace model {
namespace {

double lab_f(double t) {
  constexpr double kEpsilon = 216.0 / 24389.0, kKappa = 24389.0 / 27.0;
  return t > kEpsilon ? std::cbrt(t) : (kKappa * t + 16.0) / 116.0;
}

}  // namespace

double linear_from_srgb(std::uint8_t channel) {
  const double c = channel / 255.0;
  return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

std::uint8_t srgb_from_linear(double linear) {
  const double l = std::clamp(linear, 0.0, 1.0);
  const double c = l <= 0.0031308 ? 12.92 * l : 1.055 * std::pow(l, 1 / 2.4) - 0.055;
  return static_cast<std::uint8_t>(std::lround(c * 255));
}

Lab cie_lab(Rgba c) {
  const double r = linear_from_srgb(c.r), g = linear_from_srgb(c.g), b = linear_from_srgb(c.b);
  const double x = 0.4124564 * r + 0.3575761 * g + 0.1804375 * b;
  const double y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b;
  const double z = 0.0193339 * r + 0.1191920 * g + 0.9503041 * b;
  const double fx = lab_f(x / 0.95047), fy = lab_f(y), fz = lab_f(z / 1.08883);
  return {116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)};
}

double cie_lightness(Rgba c) { return cie_lab(c).l; }

double relative_luminance(Rgba c) {
  return 0.2126 * linear_from_srgb(c.r) + 0.7152 * linear_from_srgb(c.g) + 0.0722 * linear_from_srgb(c.b);
}

double contrast_ratio(Rgba x, Rgba y) {
  const double a = relative_luminance(x) + 0.05, b = relative_luminance(y) + 0.05;
  return a > b ? a / b : b / a;
}

double delta_e(Rgba x, Rgba y) {
  const Lab a = cie_lab(x), b = cie_lab(y);
  return std::sqrt((a.l - b.l) * (a.l - b.l) + (a.a - b.a) * (a.a - b.a) + (a.b - b.b) * (a.b - b.b));
}

}  // namespace model
