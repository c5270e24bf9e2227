// Latencies of many requests summed up as a load test reports them: the
// median, p90, p99 and the worst. Nearest-rank percentiles (a value that was
// measured, never one interpolated between two), so "p99 under 100 ms" means
// at least 99% of the requests took no longer.
#pragma once

#include <vector>

namespace attn::cli {

struct LatencySummary {
  int count = 0;
  double p50_ms = 0, p90_ms = 0, p99_ms = 0, max_ms = 0;
};

// All zero for no samples.
LatencySummary summarize_latency(std::vector<double> ms);

// The nearest-rank percentile `p` (0 < p <= 100) of sorted values.
double nearest_rank(const std::vector<double>& sorted, double p);

}  // namespace attn::cli
