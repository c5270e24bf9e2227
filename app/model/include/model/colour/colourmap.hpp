// Colourmaps as data: named lists of colour stops, sampled the same way by the
// per-cell renderer and by the texture shader (through a lookup table built
// here), so both paths always agree. Every map runs light to dark in its
// own way: sequential maps from u = 0 (light) to 1 (dark); diverging maps
// are light at u = 0.5 (zero) and darken towards both ends in two hues.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace model {

struct Rgba {
  std::uint8_t r = 0, g = 0, b = 0, a = 255;
  bool operator==(const Rgba& o) const { return r == o.r && g == o.g && b == o.b && a == o.a; }
  bool operator!=(const Rgba& o) const { return !(*this == o); }
};

enum class ColourmapId {
  RedBlue,          // diverging, ColorBrewer RdBu: the app's first map
  BlueWhiteOrange,  // diverging, colour-blind safe
  HighContrast,     // diverging, steep and saturated, for washed-out projectors
  Viridis,          // sequential, colour-blind safe, even steps of lightness
  SingleHue,        // sequential, white to one blue, like the articles' figures
  Grayscale,        // sequential, white to black, for printing
  Mask,             // the 0/1 mask matrix itself; not offered to choose
};

struct ColourStop {
  float u;
  std::uint8_t r, g, b;
};

struct Colourmap {
  ColourmapId id;
  const char* name;     // in settings files and on the command line
  const char* label;    // in menus
  const char* purpose;  // one line for the tooltip
  bool diverging;
  std::vector<ColourStop> stops;  // u ascending from 0 to 1
};

// The maps a user can choose, in menu order (Mask is not among them).
const std::vector<Colourmap>& colourmaps();
const Colourmap& colourmap(ColourmapId id);
std::optional<ColourmapId> colourmap_named(std::string_view name);
// "red-blue, blue-white-orange, ...": for error messages and --help.
std::string colourmap_names();

// The colour at u in [0, 1] (clamped), interpolated between stops.
Rgba sample(const Colourmap& map, float u);

// RGBA8 lookup table of n entries for the shader: entry i is sample(i / (n - 1)).
std::vector<std::uint8_t> lookup_table(const Colourmap& map, int n = 256);

// Text colour that stays readable on top of a cell colour (by CIE lightness).
Rgba text_colour_on(Rgba background);

}  // namespace model
