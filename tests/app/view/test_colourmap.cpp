// Colourmaps: endpoints, lightness (CIE L*) falling steadily through every
// sequential map, equal on both sides of every diverging map, the grayscale
// order, the colour-blind-safe maps under a deuteranopia simulation, text
// contrast on every cell colour, and the shader's LUT agreeing with sample().
#include <doctest/doctest.h>

#include <cmath>
#include <sstream>

#include "colour_vision.hpp"
#include "model/colour/colourmap.hpp"
#include "model/colour/colour_science.hpp"

using namespace model;

namespace {

std::string rgb(Rgba c) {
  std::ostringstream s;
  s << "(" << int(c.r) << ", " << int(c.g) << ", " << int(c.b) << ")";
  return s.str();
}

double lightness(const Colourmap& m, double u) { return cie_lightness(sample(m, static_cast<float>(u))); }

}  // namespace

TEST_CASE("the maps the issue asks for are there, by name, and unknown names are refused") {
  for (const char* name : {"viridis", "blue-white-orange", "high-contrast", "grayscale", "single-hue", "red-blue"}) {
    const auto id = colourmap_named(name);
    REQUIRE_MESSAGE(id.has_value(), name);
    CHECK(std::string(colourmap(*id).name) == name);
  }
  CHECK_FALSE(colourmap_named("jet").has_value());
  CHECK_FALSE(colourmap_named("").has_value());
  CHECK(colourmap_named("mask") == std::nullopt);  // the mask ramp is not offered
}

TEST_CASE("sequential maps: light at 0, dark at 1, lightness falling all the way") {
  for (const Colourmap& m : colourmaps()) {
    if (m.diverging) continue;
    INFO(std::string(m.name) << ": " << rgb(sample(m, 0)) << " .. " << rgb(sample(m, 1)));
    CHECK(lightness(m, 0) > 85);
    CHECK(lightness(m, 1) < 35);
    // Every step of 1/64 is darker; the smallest drop is reported.
    double smallest = 1e9, at = -1;
    for (int i = 0; i < 64; ++i) {
      const double drop = lightness(m, i / 64.0) - lightness(m, (i + 1) / 64.0);
      if (drop < smallest) smallest = drop, at = i / 64.0;
    }
    INFO("smallest drop of L* over 1/64: " << smallest << " at u = " << at);
    CHECK(smallest > 0.2);
  }
}

TEST_CASE("diverging maps: light at zero, equally dark at +d and -d, two different hues") {
  for (const Colourmap& m : colourmaps()) {
    if (!m.diverging) continue;
    INFO(std::string(m.name));
    CHECK(lightness(m, 0.5) > 90);
    CHECK(lightness(m, 0) < 30);
    CHECK(lightness(m, 1) < 30);
    CHECK(delta_e(sample(m, 0), sample(m, 1)) > 40);  // the sign shows as hue
    double worst = 0, at = -1;
    for (int i = 0; i <= 100; ++i) {
      const double d = i / 200.0;
      const double diff = std::abs(lightness(m, 0.5 - d) - lightness(m, 0.5 + d));
      if (diff > worst) worst = diff, at = d;
    }
    INFO("largest |L*(0.5 - d) - L*(0.5 + d)| = " << worst << " at d = " << at);
    CHECK(worst <= 1.5);  // below what the eye notices side by side (about 2)
    for (int i = 0; i < 50; ++i) {  // darker away from zero on both sides
      CHECK(lightness(m, 0.5 + (i + 1) / 100.0) < lightness(m, 0.5 + i / 100.0) + 0.05);
      CHECK(lightness(m, 0.5 - (i + 1) / 100.0) < lightness(m, 0.5 - i / 100.0) + 0.05);
    }
  }
}

TEST_CASE("grayscale: grey everywhere, from white down to near black in order") {
  const Colourmap& g = colourmap(ColourmapId::Grayscale);
  CHECK(sample(g, 0) == Rgba{255, 255, 255, 255});
  const std::vector<std::uint8_t> lut = lookup_table(g, 256);
  // Never lighter from one entry to the next, and strictly darker over every
  // 8 entries (238 grey levels cannot all differ across 256 entries).
  int not_grey = 0, lighter = 0, flat_run = -1;
  for (int i = 0; i < 256; ++i) {
    const std::uint8_t r = lut[static_cast<size_t>(i) * 4], gr = lut[static_cast<size_t>(i) * 4 + 1], b = lut[static_cast<size_t>(i) * 4 + 2];
    not_grey += r != gr || r != b;
    if (i > 0 && r > lut[static_cast<size_t>(i - 1) * 4]) ++lighter;
    if (i >= 8 && r >= lut[static_cast<size_t>(i - 8) * 4] && flat_run < 0) flat_run = i;
  }
  CHECK(not_grey == 0);
  CHECK(lighter == 0);
  INFO("first entry no darker than 8 entries before: " << flat_run);
  CHECK(flat_run == -1);
  CHECK(lut[255 * 4] < 30);
}

TEST_CASE("colour-blind safe maps stay readable under a deuteranopia simulation") {
  // A red-green map is the counter-example: its two signs collapse, which
  // shows the simulation can tell a bad map from a good one.
  Colourmap red_green{ColourmapId::RedBlue, "red-green", "", "", true,
                     {{0.0f, 180, 30, 30}, {0.5f, 247, 247, 247}, {1.0f, 30, 150, 40}}};
  auto worst_sign_difference = [](const Colourmap& m) {
    double worst = 1e9;
    for (int i = 20; i <= 50; ++i)
      worst = std::min(worst, delta_e(test_colour::deuteranopia(sample(m, 0.5f - i / 100.0f)),
                                      test_colour::deuteranopia(sample(m, 0.5f + i / 100.0f))));
    return worst;
  };
  CHECK(worst_sign_difference(red_green) < 10);
  for (ColourmapId id : {ColourmapId::BlueWhiteOrange, ColourmapId::HighContrast, ColourmapId::RedBlue}) {
    INFO(std::string(colourmap(id).name) << ": smallest ΔE between -d and +d as seen with deuteranopia = " << worst_sign_difference(colourmap(id)));
    CHECK(worst_sign_difference(colourmap(id)) > 20);
  }
  // Viridis: steps of 1/8 stay clearly apart (ΔE76 > 5).
  const Colourmap& v = colourmap(ColourmapId::Viridis);
  double smallest = 1e9;
  for (int i = 0; i < 8; ++i)
    smallest = std::min(smallest, delta_e(test_colour::deuteranopia(sample(v, i / 8.0f)), test_colour::deuteranopia(sample(v, (i + 1) / 8.0f))));
  INFO("viridis: smallest ΔE over 1/8 with deuteranopia = " << smallest);
  CHECK(smallest > 5);
}

TEST_CASE("lookup tables match sample() at every entry") {
  for (const Colourmap& m : colourmaps()) {
    const std::vector<std::uint8_t> lut = lookup_table(m, 256);
    REQUIRE(lut.size() == 256 * 4);
    int bad = 0;
    for (int i = 0; i < 256; ++i) {
      const Rgba c = sample(m, i / 255.0f);
      bad += lut[static_cast<size_t>(i) * 4] != c.r || lut[static_cast<size_t>(i) * 4 + 1] != c.g ||
             lut[static_cast<size_t>(i) * 4 + 2] != c.b || lut[static_cast<size_t>(i) * 4 + 3] != 255;
    }
    INFO(std::string(m.name));
    CHECK(bad == 0);
  }
}

TEST_CASE("cell numbers keep at least 4:1 contrast on every colour of every map") {
  for (const Colourmap& m : colourmaps()) {
    double worst = 99, at = -1;
    for (int i = 0; i <= 64; ++i) {
      const Rgba c = sample(m, i / 64.0f);
      const double ratio = contrast_ratio(c, text_colour_on(c));
      if (ratio < worst) worst = ratio, at = i / 64.0;
    }
    INFO(std::string(m.name) << ": lowest contrast " << worst << " at u = " << at);
    CHECK(worst >= 4.0);  // the best any one text colour can promise on every colour is about 4.2
  }
}

TEST_CASE("CIE lightness of reference colours") {
  CHECK(cie_lightness({255, 255, 255, 255}) == doctest::Approx(100).epsilon(1e-4));
  CHECK(cie_lightness({0, 0, 0, 255}) == doctest::Approx(0).epsilon(1e-9));
  CHECK(cie_lightness({119, 119, 119, 255}) == doctest::Approx(50.0).epsilon(0.01));  // sRGB mid grey (L* 50 is 118.4)
  CHECK(contrast_ratio({255, 255, 255, 255}, {0, 0, 0, 255}) == doctest::Approx(21.0));
}
