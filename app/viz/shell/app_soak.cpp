// The soak run (`attnviz --soak SECONDS`, `make soak`): plays the animation
// in a loop for a long time, as a two-hour class would, and prints the
// resident memory and the median frame time at the start and at the end, so
// growth or slowdown shows as two numbers that differ. Never in `make test`.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <vector>

#include "shell/app.hpp"

namespace viz {
namespace {

double statm_resident_mb() {
  std::ifstream statm("/proc/self/statm");
  long pages = 0, resident = 0;
  statm >> pages >> resident;
  return static_cast<double>(resident) * 4096.0 / (1 << 20);
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int App::run_soak() {
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  const double total = options_.soak_seconds;
  const double window = std::min(30.0, total / 4);  // seconds measured at each end
  std::vector<double> first, last;
  double rss_start = 0, rss_end = 0;
  long frames = 0;
  auto previous = clock::now();
  for (;;) {
    if (model_.has_trace() && !state_.clock.playing) {
      state_.clock.t = 0;  // loop the lesson like a class watching it again
      state_.clock.play(model_.timeline());
    }
    frame(1.0 / 60);
    platform_.swap();
    platform_.poll();
    ++frames;
    const auto now = clock::now();
    const double ms = std::chrono::duration<double, std::milli>(now - previous).count();
    previous = now;
    const double elapsed = std::chrono::duration<double>(now - start).count();
    if (frames == 30) rss_start = statm_resident_mb();  // after warm-up (fonts, textures)
    if (frames > 30 && elapsed < window) first.push_back(ms);
    if (elapsed > total - window) last.push_back(ms);
    if (elapsed >= total) break;
  }
  rss_end = statm_resident_mb();
  std::printf("attnviz soak: %.0f s, %ld frames\n", total, frames);
  std::printf("  %-8s %12s %16s\n", "", "RSS (MB)", "median frame (ms)");
  std::printf("  %-8s %12.1f %16.2f\n", "start", rss_start, median(first));
  std::printf("  %-8s %12.1f %16.2f\n", "end", rss_end, median(last));
  std::printf("  growth: %+.1f MB, frame time x%.2f\n", rss_end - rss_start, median(first) > 0 ? median(last) / median(first) : 0.0);
  return 0;
}

}  // namespace viz
