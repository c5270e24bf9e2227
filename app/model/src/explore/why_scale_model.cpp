// Builds the why-scale panel's numbers from its inputs; see why_scale_model.hpp.
// Both histograms share one axis so their widths can be compared by eye.
#include "model/explore/why_scale_model.hpp"

#include <algorithm>
#include <cmath>

namespace model {

WhyScaleInputs clamped(WhyScaleInputs in) {
  in.d_k = std::clamp(in.d_k, WhyScaleInputs::kMinDk, WhyScaleInputs::kMaxDk);
  in.samples = std::clamp(in.samples, WhyScaleInputs::kMinSamples, WhyScaleInputs::kMaxSamples);
  return in;
}

WhyScaleResult compute_why_scale(const WhyScaleInputs& inputs) {
  WhyScaleResult r;
  r.inputs = clamped(inputs);
  const WhyScaleInputs& in = r.inputs;
  // The scaled samples are the same pairs divided by √d_k (what
  // dot_product_samples(..., true) returns for this seed), so dividing here
  // halves the sampling time while the slider moves.
  r.raw = attn::dot_product_samples(in.d_k, in.samples, in.seed, false);
  r.scaled = r.raw;
  r.scaled.scaled = true;
  const double root = std::sqrt(static_cast<double>(in.d_k));
  for (double& v : r.scaled.values) v /= root;
  r.scaled.stats = attn::sample_stats(r.scaled.values);
  const double half = in.fit_axis ? std::max(4.0, 4.0 * std::sqrt(static_cast<double>(in.d_k)))
                                  : WhyScaleInputs::kFixedAxis;
  r.raw_hist = attn::histogram(r.raw.values, -half, half, WhyScaleResult::kBins);
  r.scaled_hist = attn::histogram(r.scaled.values, -half, half, WhyScaleResult::kBins);
  for (const attn::Histogram* h : {&r.raw_hist, &r.scaled_hist})
    r.tallest_bin = std::max(r.tallest_bin, *std::max_element(h->counts.begin(), h->counts.end()));
  const size_t n = std::min<size_t>(WhyScaleResult::kRow, r.raw.values.size());
  r.row_raw.assign(r.raw.values.begin(), r.raw.values.begin() + static_cast<long>(n));
  r.row_scaled.assign(r.scaled.values.begin(), r.scaled.values.begin() + static_cast<long>(n));
  r.weights_raw = attn::softmax_row(r.row_raw);
  r.weights_scaled = attn::softmax_row(r.row_scaled);
  r.mean_max_raw = attn::mean_row_max_weight(r.raw.values, WhyScaleResult::kRow);
  r.mean_max_scaled = attn::mean_row_max_weight(r.scaled.values, WhyScaleResult::kRow);
  return r;
}

bool WhyScaleModel::update() {
  inputs = clamped(inputs);
  if (computations_ > 0 && inputs == result_.inputs) return false;
  result_ = compute_why_scale(inputs);
  ++computations_;
  return true;
}

}  // namespace model
