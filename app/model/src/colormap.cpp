// Colormaps. Signed values use a red-white-blue diverging ramp centred on 0
// (sign is as important as size for dot products); probabilities use a
// white-to-dark-blue sequential ramp, so small weights are light and large
// ones dark, as in the articles' colored-square figures.
#include "viz/colormap.hpp"

#include <algorithm>
#include <cmath>

namespace viz {
namespace {

struct Stop {
  float u;
  float r, g, b;
};

// Stops sampled from well-known perceptual ramps (ColorBrewer RdBu / Blues).
constexpr Stop kDiverging[] = {{0.00f, 103, 0, 31},    {0.15f, 178, 24, 43},   {0.30f, 214, 96, 77},
                               {0.42f, 244, 165, 130}, {0.50f, 247, 247, 247}, {0.58f, 146, 197, 222},
                               {0.70f, 67, 147, 195},  {0.85f, 33, 102, 172},  {1.00f, 5, 48, 97}};
constexpr Stop kSequential[] = {{0.00f, 255, 255, 255}, {0.125f, 239, 243, 255}, {0.25f, 198, 219, 239},
                                {0.50f, 107, 174, 214}, {0.75f, 33, 113, 181},   {1.00f, 8, 48, 107}};
constexpr Stop kMask[] = {{0.0f, 250, 250, 250}, {1.0f, 70, 70, 78}};

template <size_t N>
Rgba sample(const Stop (&stops)[N], float u) {
  u = std::clamp(u, 0.0f, 1.0f);
  size_t i = 1;
  while (i + 1 < N && stops[i].u < u) ++i;
  const Stop& a = stops[i - 1];
  const Stop& b = stops[i];
  const float f = b.u > a.u ? (u - a.u) / (b.u - a.u) : 0.0f;
  auto mix = [f](float x, float y) { return static_cast<std::uint8_t>(std::lround(x + (y - x) * f)); };
  return {mix(a.r, b.r), mix(a.g, b.g), mix(a.b, b.b), 255};
}

}  // namespace

ColorScale scale_for(const attn::Stage& stage) {
  ColorScale s;
  s.kind = stage.kind;
  if (stage.kind != attn::ValueKind::Signed) return s;
  double m = 0;
  for (Eigen::Index c = 0; c < stage.value.cols(); ++c)
    for (Eigen::Index r = 0; r < stage.value.rows(); ++r) {
      const double v = stage.value(r, c);
      if (std::isfinite(v)) m = std::max(m, std::abs(v));
    }
  s.limit = m > 0 ? m : 1.0;
  return s;
}

float normalised(const ColorScale& scale, double v) {
  if (!std::isfinite(v)) v = v > 0 ? scale.limit : (scale.kind == attn::ValueKind::Signed ? -scale.limit : 0.0);
  switch (scale.kind) {
    case attn::ValueKind::Signed:
      return static_cast<float>(0.5 + 0.5 * std::clamp(v / scale.limit, -1.0, 1.0));
    case attn::ValueKind::Probability:
      return static_cast<float>(std::clamp(v, 0.0, 1.0));
    case attn::ValueKind::Mask:
      return v > 0.5 ? 1.0f : 0.0f;
  }
  return 0.0f;
}

Rgba color_at(attn::ValueKind kind, float u) {
  switch (kind) {
    case attn::ValueKind::Signed: return sample(kDiverging, u);
    case attn::ValueKind::Probability: return sample(kSequential, u);
    case attn::ValueKind::Mask: return sample(kMask, u);
  }
  return {};
}

Rgba masked_color() { return {178, 178, 186, 255}; }

std::vector<std::uint8_t> lookup_table(attn::ValueKind kind, int n) {
  std::vector<std::uint8_t> lut;
  lut.reserve(static_cast<size_t>(n) * 4);
  for (int i = 0; i < n; ++i) {
    const Rgba c = color_at(kind, n > 1 ? static_cast<float>(i) / static_cast<float>(n - 1) : 0.0f);
    lut.insert(lut.end(), {c.r, c.g, c.b, c.a});
  }
  return lut;
}

Rgba text_color_on(Rgba bg) {
  const double luminance = 0.299 * bg.r + 0.587 * bg.g + 0.114 * bg.b;
  return luminance > 140 ? Rgba{20, 20, 24, 255} : Rgba{250, 250, 250, 255};
}

}  // namespace viz
