// The why-scale samples. Normals come from a small Box-Muller on top of
// std::mt19937_64, whose output the standard fixes, so a seed gives the same
// samples with every compiler (std::normal_distribution does not promise that).
#include "attn/explore/explore.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>
#include <string>

#include "attn/base/matrix.hpp"
#include "compute/softmax.hpp"

namespace attn {
namespace {

constexpr double kTwoPi = 6.283185307179586476925;

// Standard normal pairs: one log, one sqrt and one sincos per two numbers.
class NormalSource {
 public:
  explicit NormalSource(std::uint64_t seed) : rng_(seed) {}
  double next() {
    if (has_spare_) {
      has_spare_ = false;
      return spare_;
    }
    const double u1 = uniform_open(), u2 = uniform_open();
    const double r = std::sqrt(-2.0 * std::log(u1)), a = kTwoPi * u2;
    spare_ = r * std::sin(a);
    has_spare_ = true;
    return r * std::cos(a);
  }

 private:
  // In (0, 1]: 53 random bits, never 0 so the log stays finite.
  double uniform_open() { return (static_cast<double>(rng_() >> 11) + 1.0) * 0x1.0p-53; }
  std::mt19937_64 rng_;
  double spare_ = 0;
  bool has_spare_ = false;
};

}  // namespace

SampleStats sample_stats(const std::vector<double>& values) {
  SampleStats s;
  if (values.empty()) return s;
  double sum = 0;
  for (double v : values) sum += v;
  s.mean = sum / static_cast<double>(values.size());
  if (values.size() < 2) return s;
  // Two passes: subtracting the mean first keeps the variance accurate.
  double sq = 0;
  for (double v : values) sq += (v - s.mean) * (v - s.mean);
  s.variance = sq / static_cast<double>(values.size() - 1);
  return s;
}

DotProductSamples dot_product_samples(int d_k, int n_samples, std::uint64_t seed, bool scaled) {
  if (d_k < 1) throw std::invalid_argument("d_k must be at least 1, got " + std::to_string(d_k));
  if (n_samples < 1) throw std::invalid_argument("the sample count must be at least 1, got " + std::to_string(n_samples));
  NormalSource normal(seed);
  DotProductSamples out;
  out.d_k = d_k;
  out.scaled = scaled;
  out.values.resize(static_cast<size_t>(n_samples));
  const double divisor = scaled ? std::sqrt(static_cast<double>(d_k)) : 1.0;
  for (double& value : out.values) {
    double dot = 0;
    for (int i = 0; i < d_k; ++i) {
      const double q = normal.next(), k = normal.next();
      dot += q * k;
    }
    value = dot / divisor;
  }
  out.stats = sample_stats(out.values);
  return out;
}

int Histogram::total() const {
  int n = below + above;
  for (int c : counts) n += c;
  return n;
}

Histogram histogram(const std::vector<double>& values, double lo, double hi, int bins) {
  if (bins < 1) throw std::invalid_argument("a histogram needs at least one bin, got " + std::to_string(bins));
  if (!(lo < hi)) throw std::invalid_argument("a histogram needs lo < hi");
  Histogram h;
  h.lo = lo;
  h.hi = hi;
  h.counts.assign(static_cast<size_t>(bins), 0);
  const double width = (hi - lo) / bins;
  for (double v : values) {
    if (v < lo) {
      ++h.below;
    } else if (v >= hi) {
      ++h.above;
    } else {
      // Rounding can put a value just under hi into bin `bins`; keep it in the last.
      const int bin = std::min(bins - 1, static_cast<int>((v - lo) / width));
      ++h.counts[static_cast<size_t>(bin)];
    }
  }
  return h;
}

std::vector<double> softmax_row(const std::vector<double>& scores) {
  if (scores.empty()) return {};
  Mat row(1, static_cast<Eigen::Index>(scores.size()));
  for (size_t j = 0; j < scores.size(); ++j) row(0, static_cast<Eigen::Index>(j)) = scores[j];
  const detail::SoftmaxResult sm = detail::masked_softmax(row, Derivation{}, SoftmaxAxis::Keys);
  std::vector<double> out(scores.size());
  for (size_t j = 0; j < scores.size(); ++j) out[j] = sm.weights(0, static_cast<Eigen::Index>(j));
  return out;
}

double mean_row_max_weight(const std::vector<double>& scores, int row_length) {
  if (row_length < 1) throw std::invalid_argument("a row needs at least one score, got " + std::to_string(row_length));
  const size_t len = static_cast<size_t>(row_length), rows = scores.size() / len;
  if (rows == 0) return 0;
  double total = 0;
  for (size_t r = 0; r < rows; ++r) {
    const std::vector<double> row(scores.begin() + static_cast<long>(r * len), scores.begin() + static_cast<long>((r + 1) * len));
    const std::vector<double> w = softmax_row(row);
    total += *std::max_element(w.begin(), w.end());
  }
  return total / static_cast<double>(rows);
}

}  // namespace attn
