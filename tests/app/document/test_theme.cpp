// Theme palettes: every text role is readable on what it is drawn on (WCAG
// contrast 4.5:1 for text, 3:1 for lines and highlights), the high-contrast
// theme goes further (7:1), and the empty, masked and canvas colours can be
// told apart, in every theme. Also the theme and contrast names.
#include <doctest/doctest.h>

#include "model/colour/colour_science.hpp"
#include "model/settings/theme.hpp"

using namespace model;

namespace {

struct Role {
  const char* name;
  Rgba ThemePalette::*colour;
  Rgba ThemePalette::*background;
  double minimum;
};

}  // namespace

TEST_CASE("every theme keeps its text readable and its marks visible") {
  const Role roles[] = {
      {"title", &ThemePalette::title, &ThemePalette::canvas, 4.5},
      {"subtitle", &ThemePalette::subtitle, &ThemePalette::canvas, 4.5},
      {"label", &ThemePalette::label, &ThemePalette::canvas, 4.5},
      {"legend", &ThemePalette::legend, &ThemePalette::canvas, 4.5},
      {"caption", &ThemePalette::caption, &ThemePalette::canvas, 4.5},
      {"text", &ThemePalette::text, &ThemePalette::panel, 4.5},
      {"muted", &ThemePalette::muted, &ThemePalette::panel, 4.5},
      {"heading", &ThemePalette::heading, &ThemePalette::panel, 4.5},
      {"emphasis", &ThemePalette::emphasis, &ThemePalette::panel, 4.5},
      {"math", &ThemePalette::math, &ThemePalette::panel, 4.5},
      {"right", &ThemePalette::right, &ThemePalette::panel, 4.5},
      {"error", &ThemePalette::error, &ThemePalette::error_panel, 4.5},
      {"warning", &ThemePalette::warning, &ThemePalette::panel, 4.5},
      {"cell outline", &ThemePalette::cell_outline, &ThemePalette::canvas, 3.0},
      {"source outline", &ThemePalette::source, &ThemePalette::canvas, 3.0},
      {"hatch", &ThemePalette::hatch, &ThemePalette::masked_fill, 1.8},
      {"arrow", &ThemePalette::arrow, &ThemePalette::canvas, 1.8},
  };
  for (Theme t : {Theme::Light, Theme::Dark, Theme::HighContrast}) {
    const ThemePalette& p = palette(t);
    for (const Role& r : roles) {
      const double ratio = contrast_ratio(p.*(r.colour), p.*(r.background));
      INFO(std::string(theme_name(t)) << ": " << std::string(r.name) << " contrast " << ratio);
      CHECK(ratio >= (t == Theme::HighContrast && r.minimum >= 4.5 ? 7.0 : r.minimum));
    }
    INFO(std::string(theme_name(t)));
    // A cell not computed yet, a masked cell and the canvas all look different.
    CHECK(delta_e(p.empty_cell, p.canvas) > 3);
    CHECK(delta_e(p.masked_fill, p.empty_cell) > 10);
  }
  // Dark is dark and the others are light.
  CHECK(cie_lightness(palette(Theme::Dark).canvas) < 20);
  CHECK(cie_lightness(palette(Theme::Light).canvas) > 95);
  CHECK(palette(Theme::HighContrast).canvas == Rgba{255, 255, 255, 255});
}

TEST_CASE("theme and contrast names round-trip and refuse unknown ones") {
  for (Theme t : {Theme::Light, Theme::Dark, Theme::HighContrast}) CHECK(theme_named(theme_name(t)) == t);
  for (Contrast c : {Contrast::Global, Contrast::Grid, Contrast::Row}) CHECK(contrast_named(contrast_name(c)) == c);
  CHECK_FALSE(theme_named("sepia").has_value());
  CHECK_FALSE(contrast_named("column").has_value());
}
