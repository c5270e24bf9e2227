// `make bench`, checking a lesson: `attn lesson check` (attn::io::load_lesson)
// on a 500-step lesson whose every step names the shipped 1024-token,
// 8-head scene (assets/scenarios/large_1024x8.json), in milliseconds (median
// and spread of 5) and the peak memory of the check. Issue 23 measured 18.9 s
// and 413 MB when the check computed every step's trace. Printed, never
// asserted: timings belong to benchmarks, not tests.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "attn/io/lesson_file.hpp"
#include "peak_memory.hpp"

namespace {

namespace fs = std::filesystem;

std::string write_lesson(const fs::path& dir, int steps) {
  fs::create_directories(dir);
  fs::copy_file(fs::path(ATTNVIZ_ASSETS_DIR) / "scenarios" / "large_1024x8.json", dir / "large_1024x8.json",
                fs::copy_options::overwrite_existing);
  nlohmann::json list = nlohmann::json::array();
  for (int i = 0; i < steps; ++i)
    list.push_back({{"title", "Step " + std::to_string(i + 1)}, {"text", "The weights, once more."},
                    {"scene", "large_1024x8.json"}, {"view", {{"stage", "weights"}}}});
  const fs::path path = dir / "long_lesson.json";
  std::ofstream(path) << nlohmann::json{{"format", "attnviz-lesson"}, {"version", 1}, {"title", "Long"},
                                        {"article", "bench"}, {"steps", list}}.dump();
  return path.string();
}

}  // namespace

int main() {
  const int steps = 500;
  const std::string path = write_lesson(fs::temp_directory_path() / "attnviz_lesson_bench", steps);
  std::vector<double> ms;
  double peak = 0;
  for (int run = 0; run < 5; ++run) {
    bench::reset_peak();
    const auto start = std::chrono::steady_clock::now();
    const attn::io::LessonFile lesson = attn::io::load_lesson(path);
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    peak = std::max(peak, bench::peak_mb());
    if (static_cast<int>(lesson.steps.size()) != steps) return 1;
  }
  std::sort(ms.begin(), ms.end());
  std::printf("Lesson check: %d steps on large_1024x8.json (1024 tokens, 8 heads)\n", steps);
  std::printf("  load_lesson: median %.0f ms (%.0f-%.0f over %zu runs), peak memory %.0f MB\n", ms[ms.size() / 2],
              ms.front(), ms.back(), ms.size(), peak);
  return 0;
}
