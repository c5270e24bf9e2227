// The why-scale helpers on their own: sample statistics against a plain
// loop, determinism of the seeded samples, histogram binning at the edges,
// and the softmax of one row against exp / sum written out here.
#include <doctest/doctest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "attn/explore/explore.hpp"

namespace {

// Mean and (n - 1) variance by the textbook one-pass sums, a different
// formula from the core's two-pass one; fine for these well-scaled samples.
void naive_stats(const std::vector<double>& v, double* mean, double* variance) {
  double s = 0, s2 = 0;
  for (double x : v) s += x, s2 += x * x;
  const double n = static_cast<double>(v.size());
  *mean = s / n;
  *variance = (s2 - s * s / n) / (n - 1);
}

}  // namespace

TEST_CASE("explore: sample_stats matches the textbook sums") {
  const std::vector<double> v{1, 2, 4, 7, -3, 0.5};
  double mean = 0, variance = 0;
  naive_stats(v, &mean, &variance);
  const attn::SampleStats s = attn::sample_stats(v);
  CHECK(s.mean == doctest::Approx(mean).epsilon(1e-12));
  CHECK(s.variance == doctest::Approx(variance).epsilon(1e-12));
  CHECK(attn::sample_stats({}).variance == 0);
  CHECK(attn::sample_stats({5}).mean == 5);
  CHECK(attn::sample_stats({5}).variance == 0);
}

TEST_CASE("explore: dot_product_samples is seeded, and scaled = unscaled / sqrt(d_k)") {
  const attn::DotProductSamples a = attn::dot_product_samples(16, 500, 42, false);
  const attn::DotProductSamples b = attn::dot_product_samples(16, 500, 42, false);
  const attn::DotProductSamples c = attn::dot_product_samples(16, 500, 43, false);
  const attn::DotProductSamples s = attn::dot_product_samples(16, 500, 42, true);
  REQUIRE(a.values.size() == 500);
  CHECK(a.values == b.values);  // same seed, same numbers
  CHECK(a.values != c.values);  // another seed, other numbers
  double worst = 0;
  for (size_t i = 0; i < a.values.size(); ++i) worst = std::max(worst, std::abs(s.values[i] - a.values[i] / 4.0));
  INFO("worst |scaled - unscaled / 4| = " << worst);
  CHECK(worst <= 1e-12);
  double mean = 0, variance = 0;
  naive_stats(a.values, &mean, &variance);
  CHECK(a.stats.mean == doctest::Approx(mean).epsilon(1e-9));
  CHECK(a.stats.variance == doctest::Approx(variance).epsilon(1e-9));
  CHECK_THROWS_AS(attn::dot_product_samples(0, 10, 1, false), std::invalid_argument);
  CHECK_THROWS_AS(attn::dot_product_samples(4, 0, 1, false), std::invalid_argument);
}

TEST_CASE("explore: histogram bins are half-open (lo + k w to lo + (k+1) w), outliers counted apart") {
  // Bins of width 1 over [0, 4): 0 | 1 | 2 | 3.
  const std::vector<double> v{-0.5, 0, 0.99, 1, 2.5, 3.999, 4, 10};
  const attn::Histogram h = attn::histogram(v, 0, 4, 4);
  REQUIRE(h.counts.size() == 4);
  CHECK(h.counts[0] == 2);  // 0 and 0.99
  CHECK(h.counts[1] == 1);  // 1 (a left edge belongs to its bin)
  CHECK(h.counts[2] == 1);  // 2.5
  CHECK(h.counts[3] == 1);  // 3.999
  CHECK(h.below == 1);      // -0.5
  CHECK(h.above == 2);      // 4 (hi is excluded) and 10
  CHECK(h.total() == static_cast<int>(v.size()));
  CHECK(h.bin_width() == 1.0);
  CHECK(h.bin_lo(2) == 2.0);
  CHECK_THROWS_AS(attn::histogram(v, 1, 1, 4), std::invalid_argument);
  CHECK_THROWS_AS(attn::histogram(v, 0, 1, 0), std::invalid_argument);
}

TEST_CASE("explore: every sample lands in exactly one bin of a histogram that covers them") {
  const attn::DotProductSamples s = attn::dot_product_samples(8, 2000, 7, false);
  const attn::Histogram h = attn::histogram(s.values, -100, 100, 37);
  CHECK(h.below == 0);
  CHECK(h.above == 0);
  CHECK(h.total() == 2000);
  // Each count equals a direct count of the samples in that bin's interval.
  int worst = 0, worst_bin = -1;
  for (int b = 0; b < 37; ++b) {
    const double lo = -100 + b * (200.0 / 37), hi = -100 + (b + 1) * (200.0 / 37);
    int n = 0;
    for (double x : s.values) n += (x >= lo && x < hi) ? 1 : 0;
    const int diff = std::abs(n - h.counts[static_cast<size_t>(b)]);
    if (diff > worst) worst = diff, worst_bin = b;
  }
  INFO("worst bin " << worst_bin << " off by " << worst);
  CHECK(worst == 0);
}

TEST_CASE("explore: softmax_row is exp / sum, stable for huge scores") {
  const std::vector<double> scores{1, 2, 3, -1};
  double sum = 0;
  for (double x : scores) sum += std::exp(x);
  const std::vector<double> w = attn::softmax_row(scores);
  REQUIRE(w.size() == 4);
  for (size_t j = 0; j < 4; ++j) CHECK(w[j] == doctest::Approx(std::exp(scores[j]) / sum).epsilon(1e-12));
  const std::vector<double> big = attn::softmax_row({1000, 0, -1000});
  CHECK(big[0] == 1.0);
  CHECK(big[1] == 0.0);  // exp(-1000) underflows to 0, never NaN
  CHECK(big[2] == 0.0);
  CHECK(attn::softmax_row({}).empty());
}

TEST_CASE("explore: mean_row_max_weight averages each row's largest softmax weight") {
  // Rows {0, 0} (max 1/2) and {ln 3, 0} (max 3/4); the leftover 5 is ignored.
  const double m = attn::mean_row_max_weight({0, 0, std::log(3.0), 0, 5}, 2);
  CHECK(m == doctest::Approx((0.5 + 0.75) / 2).epsilon(1e-12));
  CHECK(attn::mean_row_max_weight({1, 2}, 3) == 0);
  CHECK_THROWS_AS(attn::mean_row_max_weight({1}, 0), std::invalid_argument);
  // Wide unscaled scores saturate rows of 8; scaled ones do not.
  const double raw = attn::mean_row_max_weight(attn::dot_product_samples(256, 800, 3, false).values, 8);
  const double scaled = attn::mean_row_max_weight(attn::dot_product_samples(256, 800, 3, true).values, 8);
  INFO("d_k = 256, rows of 8: mean max weight " << raw << " unscaled, " << scaled << " scaled");
  CHECK(raw > 0.9);
  CHECK(scaled < 0.6);
}
