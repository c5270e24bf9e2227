// Colormaps: endpoints, monotone shade, centring on zero, and the shader
// lookup table agreeing with the CPU function.
#include <doctest/doctest.h>

#include "viz/colormap.hpp"

using namespace viz;

namespace {
int lightness(Rgba c) { return c.r + c.g + c.b; }
}  // namespace

TEST_CASE("sequential map: white at 0, darkest at 1, darker as values grow") {
  const Rgba lo = color_at(attn::ValueKind::Probability, 0.0f);
  const Rgba hi = color_at(attn::ValueKind::Probability, 1.0f);
  CHECK(lo == Rgba{255, 255, 255, 255});
  CHECK(lightness(hi) < 200);
  int last = lightness(lo);
  for (int i = 1; i <= 100; ++i) {
    const int l = lightness(color_at(attn::ValueKind::Probability, i / 100.0f));
    CHECK(l <= last);
    last = l;
  }
}

TEST_CASE("diverging map: light at zero, darker with magnitude on both sides, hues differ") {
  const Rgba zero = color_at(attn::ValueKind::Signed, 0.5f);
  const Rgba neg = color_at(attn::ValueKind::Signed, 0.0f);
  const Rgba pos = color_at(attn::ValueKind::Signed, 1.0f);
  CHECK(lightness(zero) > 700);
  CHECK(neg.r > neg.b);  // negatives are red
  CHECK(pos.b > pos.r);  // positives are blue
  int last_pos = lightness(zero), last_neg = lightness(zero);
  for (int i = 1; i <= 50; ++i) {
    const int p = lightness(color_at(attn::ValueKind::Signed, 0.5f + i / 100.0f));
    const int n = lightness(color_at(attn::ValueKind::Signed, 0.5f - i / 100.0f));
    CHECK(p <= last_pos);
    CHECK(n <= last_neg);
    last_pos = p, last_neg = n;
  }
}

TEST_CASE("normalisation: signed is symmetric about 0 and saturates; probabilities clamp") {
  ColorScale s{attn::ValueKind::Signed, 2.0};
  CHECK(normalised(s, 0.0) == doctest::Approx(0.5));
  CHECK(normalised(s, 2.0) == doctest::Approx(1.0));
  CHECK(normalised(s, -1.0) == doctest::Approx(0.25));
  CHECK(normalised(s, 50.0) == doctest::Approx(1.0));
  CHECK(normalised(s, -std::numeric_limits<double>::infinity()) == doctest::Approx(0.0));
  ColorScale p{attn::ValueKind::Probability, 1.0};
  CHECK(normalised(p, 0.25) == doctest::Approx(0.25));
  CHECK(normalised(p, -0.1) == doctest::Approx(0.0));
}

TEST_CASE("scale_for uses the largest finite magnitude of a signed stage") {
  attn::Stage st;
  st.kind = attn::ValueKind::Signed;
  st.value.resize(2, 2);
  st.value << 1.0, -3.0, -std::numeric_limits<double>::infinity(), 0.5;
  CHECK(scale_for(st).limit == doctest::Approx(3.0));
  st.value.setZero();
  CHECK(scale_for(st).limit == doctest::Approx(1.0));  // never divide by zero
}

TEST_CASE("lookup table matches color_at at its samples") {
  const auto lut = lookup_table(attn::ValueKind::Signed, 256);
  REQUIRE(lut.size() == 256 * 4);
  for (int i : {0, 64, 128, 200, 255}) {
    const Rgba c = color_at(attn::ValueKind::Signed, i / 255.0f);
    CHECK(lut[static_cast<size_t>(i) * 4] == c.r);
    CHECK(lut[static_cast<size_t>(i) * 4 + 1] == c.g);
    CHECK(lut[static_cast<size_t>(i) * 4 + 2] == c.b);
  }
}

TEST_CASE("text colour contrasts with the cell") {
  CHECK(lightness(text_color_on({255, 255, 255, 255})) < 100);
  CHECK(lightness(text_color_on({8, 48, 107, 255})) > 600);
}
