// What the user chose about colour: the theme, one colourmap for signed values
// and one for probabilities, how far each colour range stretches (contrast),
// a log scale for weights, and whether the grids of one stage share a range.
// One struct in AppState; persisted in the settings file.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "model/colour/colourmap.hpp"

namespace model {

enum class Theme { Light, Dark, HighContrast };

// Which values one colour range covers.
enum class Contrast {
  Global,  // every grid of a value kind: signed grids share one ±range; probabilities 0..1
  Grid,    // each grid its own: signed ±(largest |v| in the grid); probabilities 0..1
  Row,     // each row its own: signed ±(largest |v| in the row); probabilities row min..max
  // Each grid its own, robust to a few large values: signed ±(99th percentile
  // of |v|), probabilities 0..(99th percentile); the cells beyond are marked.
  Percentile,
};

struct ColourOptions {
  Theme theme = Theme::Light;
  ColourmapId signed_map = ColourmapId::RedBlue;
  ColourmapId probability_map = ColourmapId::SingleHue;
  Contrast contrast = Contrast::Grid;
  bool log_weights = false;   // probabilities on a log10 scale from kLogFloor
  bool shared_range = false;  // grids of one stage (every head's weights) share a range
  bool operator==(const ColourOptions& o) const {
    return theme == o.theme && signed_map == o.signed_map && probability_map == o.probability_map &&
           contrast == o.contrast && log_weights == o.log_weights && shared_range == o.shared_range;
  }
  bool operator!=(const ColourOptions& o) const { return !(*this == o); }
};

const char* theme_name(Theme t);  // "light", "dark", "high-contrast"
std::optional<Theme> theme_named(std::string_view name);
const char* contrast_name(Contrast c);  // "global", "grid", "row"
std::optional<Contrast> contrast_named(std::string_view name);

}  // namespace model
