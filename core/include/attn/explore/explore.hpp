// Numbers behind "why scale by 1/√d_k": dot products of random vectors,
// their mean and variance, a histogram of them, and the softmax of a few.
// Pure and seeded, so the app's live panel, the `attn why-scale` command and
// the property tests all see the same samples for the same inputs.
#pragma once

#include <cstdint>
#include <vector>

namespace attn {

// Sample mean and variance (divided by n - 1; 0 when n < 2).
struct SampleStats {
  double mean = 0;
  double variance = 0;
};

SampleStats sample_stats(const std::vector<double>& values);

struct DotProductSamples {
  int d_k = 0;
  bool scaled = false;          // each value divided by √d_k
  std::vector<double> values;   // one q·k (or q·k / √d_k) per pair
  SampleStats stats;
};

// n_samples dot products q·k, where q and k have d_k independent components
// drawn from N(0, 1). The same (d_k, n_samples, seed) draws the same vectors
// whether scaled or not, so the scaled values are the unscaled ones / √d_k.
// Throws std::invalid_argument when d_k < 1 or n_samples < 1.
DotProductSamples dot_product_samples(int d_k, int n_samples, std::uint64_t seed, bool scaled);

// Equal-width bins over [lo, hi); values outside are counted in below/above
// rather than dropped silently, so a plot can say how many fell off its axis.
struct Histogram {
  double lo = 0, hi = 1;
  std::vector<int> counts;
  int below = 0, above = 0;
  double bin_width() const { return counts.empty() ? 0 : (hi - lo) / static_cast<double>(counts.size()); }
  double bin_lo(int bin) const { return lo + bin * bin_width(); }
  int total() const;  // every value, in or out of range
};

// Throws std::invalid_argument when bins < 1 or !(lo < hi).
Histogram histogram(const std::vector<double>& values, double lo, double hi, int bins);

// The softmax of one row of scores (max subtracted first, as the core does).
std::vector<double> softmax_row(const std::vector<double>& scores);

// Cuts the scores into consecutive rows of row_length (a leftover shorter
// row is ignored) and averages each row's largest softmax weight: near 1
// means softmax is saturated (one-hot), 1 / row_length means uniform.
// Returns 0 when there is no full row; throws when row_length < 1.
double mean_row_max_weight(const std::vector<double>& scores, int row_length);

}  // namespace attn
