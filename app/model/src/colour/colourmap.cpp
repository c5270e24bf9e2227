// The colourmaps' stops. The diverging maps were made in CIE LCh: both sides
// share one lightness curve (so +d and -d look equally strong; a map whose
// one side is darker would overstate that sign), with hues from the blue and
// orange families that deuteranopes and protanopes still tell apart. Red-blue
// is ColorBrewer RdBu with each pair of stops set to their mean lightness.
// Viridis is matplotlib's (van der Walt & Smith), reversed so small is light.
#include "model/colour/colourmap.hpp"

#include <algorithm>
#include <cmath>

#include "model/colour/colour_science.hpp"

namespace model {
namespace {

std::vector<Colourmap> build_maps() {
  return {
      {ColourmapId::RedBlue, "red-blue", "Red – white – blue", "Diverging: red below zero, blue above (the app's first map)", true,
       {{0.0f, 103, 0, 31}, {0.1f, 184, 32, 47}, {0.2f, 218, 100, 80}, {0.3f, 247, 168, 133}, {0.4f, 253, 219, 199},
        {0.5f, 247, 247, 247}, {0.6f, 209, 229, 240}, {0.7f, 143, 194, 219}, {0.8f, 62, 143, 191}, {0.9f, 23, 97, 166},
        {1.0f, 5, 48, 97}}},
      {ColourmapId::BlueWhiteOrange, "blue-white-orange", "Blue – white – orange",
       "Diverging, colour-blind safe: blue below zero, orange above", true,
       {{0.0f, 15, 60, 90}, {0.1f, 31, 99, 145}, {0.2f, 58, 138, 196}, {0.3f, 112, 177, 234}, {0.4f, 196, 214, 236},
        {0.5f, 246, 246, 246}, {0.6f, 237, 206, 188}, {0.7f, 239, 150, 90}, {0.8f, 202, 105, 34}, {0.9f, 149, 73, 15},
        {1.0f, 92, 44, 8}}},
      {ColourmapId::HighContrast, "high-contrast", "High contrast",
       "Saturated colours from small values on, for washed-out projectors (colour-blind safe)", true,
       {{0.0f, 3, 39, 85}, {0.1f, 12, 73, 150}, {0.225f, 23, 111, 221}, {0.35f, 111, 152, 252}, {0.45f, 184, 196, 249},
        {0.5f, 252, 252, 252}, {0.55f, 250, 183, 160}, {0.65f, 253, 112, 66}, {0.775f, 211, 57, 6}, {0.9f, 143, 36, 3},
        {1.0f, 75, 23, 1}}},
      {ColourmapId::Viridis, "viridis", "Viridis", "Sequential, colour-blind safe: yellow (small) to purple (large)", false,
       {{0.0f, 253, 231, 37}, {0.125f, 170, 220, 50}, {0.25f, 93, 200, 99}, {0.375f, 39, 173, 129}, {0.5f, 33, 144, 140},
        {0.625f, 44, 114, 142}, {0.75f, 59, 82, 139}, {0.875f, 71, 45, 123}, {1.0f, 68, 1, 84}}},
      {ColourmapId::SingleHue, "single-hue", "White – blue", "Sequential, one hue: white (0) to dark blue, as in the articles", false,
       {{0.0f, 255, 255, 255}, {0.125f, 239, 243, 255}, {0.25f, 198, 219, 239}, {0.5f, 107, 174, 214},
        {0.75f, 33, 113, 181}, {1.0f, 8, 48, 107}}},
      // Even steps of lightness (L* 100, 75, 50, 25, 5), so a printout keeps the order.
      {ColourmapId::Grayscale, "grayscale", "Grayscale", "White to black, for printing", false,
       {{0.0f, 255, 255, 255}, {0.25f, 185, 185, 185}, {0.5f, 119, 119, 119}, {0.75f, 59, 59, 59}, {1.0f, 17, 17, 17}}},
  };
}

const Colourmap& mask_map() {
  static const Colourmap map{ColourmapId::Mask, "mask", "Mask", "0 = open, 1 = blocked", false,
                            {{0.0f, 250, 250, 250}, {1.0f, 70, 70, 78}}};
  return map;
}

}  // namespace

const std::vector<Colourmap>& colourmaps() {
  static const std::vector<Colourmap> maps = build_maps();
  return maps;
}

const Colourmap& colourmap(ColourmapId id) {
  for (const Colourmap& m : colourmaps())
    if (m.id == id) return m;
  return mask_map();
}

std::optional<ColourmapId> colourmap_named(std::string_view name) {
  for (const Colourmap& m : colourmaps())
    if (name == m.name) return m.id;
  return std::nullopt;
}

std::string colourmap_names() {
  std::string out;
  for (const Colourmap& m : colourmaps()) out += (out.empty() ? "" : ", ") + std::string(m.name);
  return out;
}

Rgba sample(const Colourmap& map, float u) {
  const std::vector<ColourStop>& s = map.stops;
  u = std::clamp(std::isfinite(u) ? u : 0.0f, 0.0f, 1.0f);
  size_t i = 1;
  while (i + 1 < s.size() && s[i].u < u) ++i;
  const ColourStop& a = s[i - 1];
  const ColourStop& b = s[i];
  const float f = b.u > a.u ? std::clamp((u - a.u) / (b.u - a.u), 0.0f, 1.0f) : 0.0f;
  auto mix = [f](float x, float y) { return static_cast<std::uint8_t>(std::lround(x + (y - x) * f)); };
  return {mix(a.r, b.r), mix(a.g, b.g), mix(a.b, b.b), 255};
}

std::vector<std::uint8_t> lookup_table(const Colourmap& map, int n) {
  std::vector<std::uint8_t> lut;
  lut.reserve(static_cast<size_t>(std::max(n, 0)) * 4);
  for (int i = 0; i < n; ++i) {
    const Rgba c = sample(map, n > 1 ? static_cast<float>(i) / static_cast<float>(n - 1) : 0.0f);
    lut.insert(lut.end(), {c.r, c.g, c.b, c.a});
  }
  return lut;
}

Rgba text_colour_on(Rgba bg) {
  // Whichever contrasts more; on any colour that is at least about 4.2:1.
  constexpr Rgba kDark{20, 20, 24, 255}, kLight{250, 250, 250, 255};
  return contrast_ratio(bg, kDark) >= contrast_ratio(bg, kLight) ? kDark : kLight;
}

}  // namespace model
