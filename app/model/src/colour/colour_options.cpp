// Names of the colour choices, as settings files and the command line spell them.
#include "model/colour/colour_options.hpp"

namespace model {

const char* theme_name(Theme t) {
  switch (t) {
    case Theme::Light: return "light";
    case Theme::Dark: return "dark";
    case Theme::HighContrast: return "high-contrast";
  }
  return "light";
}

std::optional<Theme> theme_named(std::string_view name) {
  for (Theme t : {Theme::Light, Theme::Dark, Theme::HighContrast})
    if (name == theme_name(t)) return t;
  return std::nullopt;
}

const char* contrast_name(Contrast c) {
  switch (c) {
    case Contrast::Global: return "global";
    case Contrast::Grid: return "grid";
    case Contrast::Row: return "row";
    case Contrast::Percentile: return "p99";
  }
  return "grid";
}

std::optional<Contrast> contrast_named(std::string_view name) {
  for (Contrast c : {Contrast::Global, Contrast::Grid, Contrast::Row, Contrast::Percentile})
    if (name == contrast_name(c)) return c;
  return std::nullopt;
}

}  // namespace model
