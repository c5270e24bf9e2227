// The why-scale panel model: recomputes only when an input changes, clamps
// typed inputs, puts both histograms on one axis holding every sample, and
// shows a saturated softmax row unscaled next to a soft one scaled.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "model/explore/why_scale_model.hpp"

TEST_CASE("why scale: recomputes only when an input changes") {
  model::WhyScaleModel m;
  CHECK_FALSE(m.ready());
  CHECK(m.update());
  CHECK(m.ready());
  CHECK_FALSE(m.update());  // same inputs: nothing to do
  CHECK(m.computations() == 1);
  m.inputs.d_k = 16;
  CHECK(m.update());
  CHECK(m.result().raw.d_k == 16);
  m.inputs.fit_axis = true;
  CHECK(m.update());
  CHECK(m.computations() == 3);
}

TEST_CASE("why scale: typed inputs outside the ranges are clamped before sampling") {
  model::WhyScaleModel m;
  m.inputs.d_k = 0;
  m.inputs.samples = 5000000;
  m.update();
  CHECK(m.result().inputs.d_k == model::WhyScaleInputs::kMinDk);
  CHECK(m.result().raw.values.size() == static_cast<size_t>(model::WhyScaleInputs::kMaxSamples));
  CHECK(m.inputs.d_k == model::WhyScaleInputs::kMinDk);  // the panel shows what was used
}

TEST_CASE("why scale: both histograms share one axis and count every sample") {
  for (bool fit : {false, true}) {
    model::WhyScaleInputs in;
    in.d_k = 256;
    in.samples = 3000;
    in.fit_axis = fit;
    const model::WhyScaleResult r = model::compute_why_scale(in);
    INFO("fit_axis " << fit);
    CHECK(r.raw_hist.lo == r.scaled_hist.lo);
    CHECK(r.raw_hist.hi == r.scaled_hist.hi);
    CHECK(r.raw_hist.counts.size() == static_cast<size_t>(model::WhyScaleResult::kBins));
    CHECK(r.raw_hist.total() == 3000);
    CHECK(r.scaled_hist.total() == 3000);
    // The fixed axis is ±40: at d_k = 256 (spread 16) a few unscaled samples
    // fall off it and are counted, while the fitted axis ±64 holds them all.
    if (fit) CHECK(r.raw_hist.hi == doctest::Approx(64.0));
    else CHECK(r.raw_hist.hi == doctest::Approx(40.0));
    if (fit) CHECK(r.raw_hist.below + r.raw_hist.above == 0);
    CHECK(r.scaled_hist.below + r.scaled_hist.above == 0);
    int tallest = 0;
    for (int c : r.raw_hist.counts) tallest = std::max(tallest, c);
    for (int c : r.scaled_hist.counts) tallest = std::max(tallest, c);
    CHECK(r.tallest_bin == tallest);
  }
}

TEST_CASE("why scale: at d_k = 256 the unscaled row of 8 is near one-hot, the scaled row is not") {
  model::WhyScaleInputs in;
  in.d_k = 256;
  const model::WhyScaleResult r = model::compute_why_scale(in);
  REQUIRE(r.weights_raw.size() == static_cast<size_t>(model::WhyScaleResult::kRow));
  double max_raw = 0, max_scaled = 0, sum = 0;
  for (size_t j = 0; j < r.weights_raw.size(); ++j) {
    max_raw = std::max(max_raw, r.weights_raw[j]);
    max_scaled = std::max(max_scaled, r.weights_scaled[j]);
    sum += r.weights_raw[j];
    CHECK(r.row_scaled[j] == doctest::Approx(r.row_raw[j] / 16.0).epsilon(1e-12));
  }
  INFO("max weight unscaled " << max_raw << ", scaled " << max_scaled);
  CHECK(sum == doctest::Approx(1.0).epsilon(1e-12));
  CHECK(max_raw > 0.95);
  CHECK(max_scaled < 0.8);
  // Averaged over all 250 rows of 8, independently of this first row.
  CHECK(r.mean_max_raw == doctest::Approx(attn::mean_row_max_weight(r.raw.values, 8)).epsilon(1e-12));
  CHECK(r.mean_max_raw > 0.9);
  CHECK(r.mean_max_scaled < 0.5);
}

TEST_CASE("why scale: the model's scaled samples are the core's scaled samples for the same seed") {
  model::WhyScaleInputs in;
  in.d_k = 37;
  in.samples = 500;
  in.seed = 12;
  const model::WhyScaleResult r = model::compute_why_scale(in);
  const attn::DotProductSamples core = attn::dot_product_samples(37, 500, 12, true);
  REQUIRE(r.scaled.values.size() == core.values.size());
  double worst = 0;
  for (size_t i = 0; i < core.values.size(); ++i) worst = std::max(worst, std::abs(r.scaled.values[i] - core.values[i]));
  INFO("worst difference " << worst);
  CHECK(worst <= 1e-12);
  CHECK(r.scaled.stats.variance == doctest::Approx(core.stats.variance).epsilon(1e-12));
}
