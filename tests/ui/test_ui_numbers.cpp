// Issue 6 under Xvfb: grids holding -0.006, -1e30 and 1.8e-13 print a number
// in every cell once their numbers fit (the layout dump says so, and every
// cell's pixels show text); zoomed out the dump says those grids hide their
// numbers and the canvas hint says why; a large grid (the texture path)
// zoomed in prints a number in every cell in view.
#include <doctest/doctest.h>

#include <cstdint>
#include <map>
#include <sstream>
#include <utility>

#include "ui_support.hpp"

using namespace ui_test;

namespace {

const std::string kScene = std::string(ATTNVIZ_TEST_DATA_DIR) + "/tiny_and_huge.json";

// A glyph stroke differs from its cell's fill by at least this much (text is
// drawn in black or white on whichever reads better), and even a "0" at the
// smallest text size has more strong pixels than kTextPixels.
constexpr int kStroke = 60;
constexpr int kTextPixels = 5;

// Pixels inside cell (r, c), 2 px clear of its edges, that differ clearly
// from the cell's most common colour (its fill): the pixels of its text.
int text_pixels(const Image& image, const nlohmann::json& grid, int r, int c) {
  int x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  cell_point(grid, r, c, 0, 0, &x0, &y0);
  cell_point(grid, r, c, 1, 1, &x1, &y1);
  std::map<std::uint32_t, int> counts;
  for (int y = y0 + 2; y < y1 - 2; ++y)
    for (int x = x0 + 2; x < x1 - 2; ++x) {
      const viz::Rgba p = image.at(x, y);
      ++counts[(std::uint32_t{p.r} << 16) | (std::uint32_t{p.g} << 8) | p.b];
    }
  if (counts.empty()) return 0;
  std::uint32_t fill = 0;
  int most = 0;
  for (const auto& [colour, n] : counts)
    if (n > most) most = n, fill = colour;
  const viz::Rgba f{static_cast<unsigned char>(fill >> 16), static_cast<unsigned char>(fill >> 8),
                    static_cast<unsigned char>(fill), 255};
  int strokes = 0;
  for (int y = y0 + 2; y < y1 - 2; ++y)
    for (int x = x0 + 2; x < x1 - 2; ++x) strokes += distance(image.at(x, y), f) > kStroke;
  return strokes;
}

const std::pair<const char*, int> kGrids[] = {{"x", -1},      {"q", 0},       {"k", 0},       {"v", 0},
                                              {"scores", 0},  {"scaled", 0},  {"weights", 0}, {"head_output", 0},
                                              {"output", -1}};

}  // namespace

TEST_SUITE("numbers") {
  TEST_CASE("ui: every cell of grids holding -0.006, -1e30 and 1.8e-13 prints a number") {
    const Shot shot = shoot(kScene, "numbers_fit", "");
    // The scene still holds the values of the issue.
    const attn::Stage* x = shot.trace.find(attn::StageKind::x, -1);
    REQUIRE(x != nullptr);
    CHECK(x->value(0, 1) == -0.006);
    CHECK(x->value(1, 0) == 1.8e-13);
    CHECK(x->value(2, 0) == -1e30);
    CHECK(shot.layout.value("numbers_hidden_hint", true) == false);
    for (const auto& [id, head] : kGrids) {
      const attn::Stage* stage = shot.trace.find_named(id, head);
      const nlohmann::json* grid = grid_of(shot.layout, id, head);
      REQUIRE_MESSAGE((stage && grid), "no grid " << id << " head " << head);
      INFO("grid " << std::string(id) << ", cells " << (*grid)["cell"] << " px");
      CHECK(grid->value("numbers", false));
      CHECK(grid->value("value_px", 0.0) >= 8.5);
      int blank = 0, fewest = 1 << 30;
      std::ostringstream first;
      for (int r = 0; r < stage->value.rows(); ++r)
        for (int c = 0; c < stage->value.cols(); ++c) {
          const int n = text_pixels(shot.image, *grid, r, c);
          fewest = std::min(fewest, n);
          if (n < kTextPixels && blank++ == 0) first << "(" << r << ", " << c << ") = " << stage->value(r, c);
        }
      CHECK_MESSAGE(blank == 0, blank << " cells without text, first " << first.str() << "; fewest text pixels "
                                      << fewest);
    }
  }

  TEST_CASE("ui: zoomed out, the layout dump and the hint say the numbers are hidden") {
    const Shot shot = shoot(kScene, "numbers_hidden", "--zoom 0.4");
    CHECK(shot.layout.value("numbers_hidden_hint", false) == true);
    for (const auto& [id, head] : kGrids) {
      if (std::string(id) == "weights") continue;  // .56, .44, 0, 1: one digit fits even here
      const nlohmann::json* grid = grid_of(shot.layout, id, head);
      REQUIRE_MESSAGE(grid != nullptr, "no grid " << id << " head " << head);
      INFO("grid " << std::string(id) << ", cells " << (*grid)["cell"] << " px");
      CHECK_FALSE(grid->value("numbers", true));
      CHECK(grid->value("value_px", -1.0) == 0);
    }
    // None, not some: no cell of X shows text.
    const nlohmann::json* x = grid_of(shot.layout, "x", -1);
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) CHECK_MESSAGE(text_pixels(shot.image, *x, r, c) == 0, "text in X(" << r << ", " << c << ")");
  }

  TEST_CASE("ui: a large grid drawn as a texture prints a number in every cell in view once zoomed in") {
    const std::string path = default_lesson_with_tokens(80, "numbers80_scenario.json");  // 80 x 80 weights
    const Shot wide = shoot(path, "numbers80_fit", "--stage weights --time 9999");
    const nlohmann::json* fitted = grid_of(wide.layout, "weights", 0);
    REQUIRE(fitted != nullptr);
    CHECK_FALSE(fitted->value("numbers", true));  // about 6 px cells at the fit
    CHECK(wide.layout.value("numbers_hidden_hint", false));

    const Shot shot = shoot(path, "numbers80_zoomed", "--stage weights --time 9999 --zoom 6");
    const nlohmann::json* grid = grid_of(shot.layout, "weights", 0);
    REQUIRE(grid != nullptr);
    INFO("weights cells " << (*grid)["cell"] << " px");
    CHECK(grid->value("numbers", false));
    // Cells wholly inside the canvas, clear of the status panel (top) and the hint line (bottom).
    const std::vector<double> canvas = shot.layout["canvas"].get<std::vector<double>>();
    REQUIRE(canvas.size() == 4);
    const double cell = (*grid)["cell"].get<double>(), x0 = (*grid)["x0"].get<double>(), y0 = (*grid)["y0"].get<double>();
    int checked = 0, blank = 0;
    std::ostringstream first;
    for (int r = 0; r < 80; ++r)
      for (int c = 0; c < 80; ++c) {
        const double left = x0 + c * cell, top = y0 + r * cell;
        if (left < canvas[0] || left + cell > canvas[2] || top < canvas[1] + 150 || top + cell > canvas[3] - 50) continue;
        ++checked;
        if (text_pixels(shot.image, *grid, r, c) < kTextPixels && blank++ == 0) first << "(" << r << ", " << c << ")";
      }
    CHECK_MESSAGE(checked >= 20, "only " << checked << " weights cells in view");
    CHECK_MESSAGE(blank == 0, blank << " of " << checked << " cells in view without text, first " << first.str());
  }
}
