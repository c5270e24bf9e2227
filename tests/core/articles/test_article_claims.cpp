// The teaching claims behind the newer article scenes, checked on the core's
// numbers: 0..255 pixels saturate the softmax while 0..1 pixels do not; the
// variance of q·k grows like d_k unscaled and stays near 1 scaled; a window
// mask with position-only scores is exactly a convolution.
#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <string>
#include <utility>

#include "attn/explore/explore.hpp"
#include "scene_helpers.hpp"

using scene::load;
using scene::Loaded;

namespace {

double row_max_weight(const Loaded& l, int row) { return l.at(attn::StageKind::weights, 0).row(row).maxCoeff(); }

}  // namespace

TEST_CASE("claim: the same pixels as bytes (0..255) saturate softmax, as 0..1 values they do not") {
  const Loaded bytes = load("rgbd_pixels_255"), unit = load("rgbd_pixels");
  const attn::Mat& xb = bytes.scenario().x;
  const attn::Mat& xu = unit.scenario().x;
  REQUIRE(xb.rows() == xu.rows());
  REQUIRE(xb.cols() == xu.cols());
  // The same pixels: each byte is the 0..1 value times 255, rounded.
  CHECK((xb - 255 * xu).cwiseAbs().maxCoeff() <= 0.5 + 1e-9);
  CHECK(bytes.scenario().scale == attn::ScaleMode::None);
  double lowest_bytes = 1, highest_unit = 0;
  int lowest_row = -1, highest_row = -1;
  for (int i = 0; i < xb.rows(); ++i) {
    if (row_max_weight(bytes, i) < lowest_bytes) lowest_bytes = row_max_weight(bytes, i), lowest_row = i;
    if (row_max_weight(unit, i) > highest_unit) highest_unit = row_max_weight(unit, i), highest_row = i;
  }
  INFO("0..255: least saturated row " << lowest_row << " has max weight " << lowest_bytes);
  INFO("0..1: most peaked row " << highest_row << " has max weight " << highest_unit);
  CHECK(lowest_bytes > 0.999);
  CHECK(highest_unit < 0.999);
}

TEST_CASE("claim: var(q·k) grows like d_k unscaled and stays near 1 with 1/sqrt(d_k)") {
  // 4000 pairs per width: the sample variance of q·k then has a relative
  // spread of about sqrt((2 + 6/d_k) / 4000) <= 3%, so the ±15% band is 5
  // standard deviations wide and the fixed seed is not a lucky pick.
  constexpr int kSamples = 4000;
  constexpr std::uint64_t kSeed = 2017;
  constexpr double kBand = 0.15;
  double worst = 0;
  std::string worst_case;
  for (int d_k : {4, 16, 64, 256}) {
    const attn::DotProductSamples raw = attn::dot_product_samples(d_k, kSamples, kSeed, false);
    const attn::DotProductSamples scaled = attn::dot_product_samples(d_k, kSamples, kSeed, true);
    const double raw_ratio = raw.stats.variance / d_k, scaled_var = scaled.stats.variance;
    MESSAGE("d_k = " << d_k << ": var(q·k) = " << raw.stats.variance << " (" << raw_ratio
                     << " d_k), var(q·k/sqrt(d_k)) = " << scaled_var);
    for (const auto& [what, value] : {std::pair<const char*, double>{"unscaled var / d_k", raw_ratio},
                                      std::pair<const char*, double>{"scaled var", scaled_var}})
      if (std::abs(value - 1) > worst) {
        worst = std::abs(value - 1);
        worst_case = std::string(what) + " at d_k = " + std::to_string(d_k) + " is " + std::to_string(value);
      }
    // The mean stays near 0 either way (its standard error is sqrt(var / n)).
    CHECK(std::abs(scaled.stats.mean) < 5 / std::sqrt(kSamples));
  }
  INFO("worst: " << worst_case);
  CHECK(worst <= kBand);
}

TEST_CASE("claim: a window-of-3 mask with position-only scores reproduces a [1/4, 1/2, 1/4] convolution") {
  const Loaded l = load("convolution_window");
  const attn::Scenario& base = l.scenario();
  const int n = static_cast<int>(base.x.rows()), channels = 2;
  // The mask is a band: each token sees itself and its two neighbours.
  REQUIRE(base.mask == attn::MaskKind::Custom);
  int off_band = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      if (base.custom_mask(i, j) != (std::abs(i - j) > 1)) ++off_band;
  CHECK_MESSAGE(off_band == 0, off_band << " mask cells differ from a band of width 3");

  // The claim holds for any signal, so also try random ones in the signal
  // columns (the first two features; the last two are the positions).
  const double kernel[3] = {0.25, 0.5, 0.25};
  std::mt19937_64 rng(77);
  std::uniform_real_distribution<double> u(-10, 10);
  double worst = 0;
  std::string where;
  for (int trial = 0; trial <= 20; ++trial) {
    attn::Scenario s = base;
    if (trial > 0)
      for (int t = 1; t < n - 1; ++t)
        for (int c = 0; c < channels; ++c) s.x(t, c) = u(rng);  // the pads stay 0
    const attn::Trace trace = attn::compute_trace(s);
    const attn::Mat out = trace.find(attn::StageKind::output)->value.dense();  // (n, 2)
    // Plain zero-padded convolution of each channel, on the samples (the pad
    // tokens only stand for the zero padding; their own rows see 2 keys).
    for (int t = 1; t < n - 1; ++t)
      for (int c = 0; c < channels; ++c) {
        double want = 0;
        for (int k = -1; k <= 1; ++k) {
          const int src = t + k;
          want += kernel[k + 1] * (src >= 0 && src < n ? s.x(src, c) : 0.0);
        }
        const double err = std::abs(out(t, c) - want);
        if (err > worst) {
          worst = err;
          where = "trial " + std::to_string(trial) + ", token " + std::to_string(t) + ", channel " + std::to_string(c) +
                  ": attention " + std::to_string(out(t, c)) + ", convolution " + std::to_string(want);
        }
      }
  }
  INFO("worst: " << where);
  CHECK(worst <= 1e-12 * 10);  // values up to 10: 1e-12 relative
}
