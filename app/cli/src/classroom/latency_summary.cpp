// Nearest-rank percentiles of request latencies (see latency_summary.hpp).
#include "classroom/latency_summary.hpp"

#include <algorithm>
#include <cmath>

namespace attn::cli {

double nearest_rank(const std::vector<double>& sorted, double p) {
  if (sorted.empty()) return 0;
  // Rank ceil(p/100 * n), counted from 1; the rounding guards 0.99 * 100 = 98.99999.
  const double rank = std::ceil(p / 100 * static_cast<double>(sorted.size()) - 1e-9);
  const auto index = static_cast<size_t>(std::clamp(rank, 1.0, static_cast<double>(sorted.size()))) - 1;
  return sorted[index];
}

LatencySummary summarize_latency(std::vector<double> ms) {
  LatencySummary s;
  if (ms.empty()) return s;
  std::sort(ms.begin(), ms.end());
  s.count = static_cast<int>(ms.size());
  s.p50_ms = nearest_rank(ms, 50);
  s.p90_ms = nearest_rank(ms, 90);
  s.p99_ms = nearest_rank(ms, 99);
  s.max_ms = ms.back();
  return s;
}

}  // namespace attn::cli
