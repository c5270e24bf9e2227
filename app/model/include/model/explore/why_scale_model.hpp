// The "Why scale" panel's numbers: q·k over random unit-variance vectors at
// the chosen d_k, unscaled and divided by √d_k, as two histograms on one
// axis, their variances, and the softmax of a row of 8 scores each way.
// Sampling 2000 pairs 512 wide takes ~50 ms, so it runs only when an input
// changes, never in draw code; the panel edits `inputs` and reads result().
#pragma once

#include <cstdint>
#include <vector>

#include "attn/explore/explore.hpp"

namespace model {

struct WhyScaleInputs {
  static constexpr int kMinDk = 1, kMaxDk = 512;
  static constexpr int kMinSamples = 100, kMaxSamples = 5000;
  static constexpr double kFixedAxis = 40;  // half width of the fixed axis

  int d_k = 64;
  int samples = 2000;
  std::uint64_t seed = 1;
  // false: both histograms on a fixed ±40 axis, so the unscaled one visibly
  // widens as d_k grows; true: the axis follows ±4√d_k.
  bool fit_axis = false;

  bool operator==(const WhyScaleInputs& o) const {
    return d_k == o.d_k && samples == o.samples && seed == o.seed && fit_axis == o.fit_axis;
  }
  bool operator!=(const WhyScaleInputs& o) const { return !(*this == o); }
};

struct WhyScaleResult {
  static constexpr int kRow = 8;   // scores in the softmax row
  static constexpr int kBins = 61; // odd, so 0 sits in the middle of a bin

  WhyScaleInputs inputs;           // what this was computed from (clamped)
  attn::DotProductSamples raw, scaled;
  attn::Histogram raw_hist, scaled_hist;  // same range and bins
  std::vector<double> row_raw, row_scaled;                  // the first kRow samples
  std::vector<double> weights_raw, weights_scaled;          // their softmax
  // One row can be unlucky (two close top scores); the average largest
  // weight over every row of kRow samples is the steady number.
  double mean_max_raw = 0, mean_max_scaled = 0;
  int tallest_bin = 0;             // largest count of either histogram
};

// Inputs clamped to their ranges (a typed 0 or 10^6 never reaches the core).
WhyScaleInputs clamped(WhyScaleInputs in);

WhyScaleResult compute_why_scale(const WhyScaleInputs& inputs);

class WhyScaleModel {
 public:
  WhyScaleInputs inputs;  // the panel edits these in place

  // Recomputes when `inputs` differ from the last computed ones; true if it did.
  bool update();
  // Valid after the first update().
  const WhyScaleResult& result() const { return result_; }
  bool ready() const { return computations_ > 0; }
  int computations() const { return computations_; }  // for tests

 private:
  WhyScaleResult result_;
  int computations_ = 0;
};

}  // namespace model
