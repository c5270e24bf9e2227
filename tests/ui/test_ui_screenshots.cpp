// Headless screenshots under Xvfb: the colour of every cell of known grids,
// at the position the app's own layout dump reports, must be the colourmap
// colour of that cell's value as computed here (per-cell and texture paths,
// a non-square input, multi-head), and the animation must hide cells at
// t = 0 that it shows at the end.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <sstream>

#include "attn/io/scenario_file.hpp"
#include "gl/theme_style.hpp"
#include "ui_support.hpp"
#include "model_names.hpp"
#include "model/colour/colour_scale.hpp"
#include "model/settings/theme.hpp"

using namespace ui_test;

namespace {

const viz::Rgba kEmpty = viz::palette(viz::Theme::Light).empty_cell;

}  // namespace

TEST_SUITE("screenshots") {
  TEST_CASE("ui: --screenshot-at first-grids pictures a big scene's head on screen, drawn before the rest") {
    const std::string scene = std::string(ATTNVIZ_ASSETS_DIR) + "/scenarios/large_1024x8.json";
    const Shot first = shoot(scene, "first_grids", "--screenshot-at first-grids");
    const Shot done = shoot(scene, "first_grids_done", "");
    // The preview: the inputs and head 0 (the head on screen), no concat or output yet.
    for (const char* id : {"q", "scores", "weights", "head_output"})
      CHECK_MESSAGE(grid_of(first.layout, id, 0) != nullptr, "no " << id << " of head 0 in the first grids");
    CHECK(grid_of(first.layout, "x", -1) != nullptr);
    CHECK_MESSAGE(grid_of(first.layout, "output", -1) == nullptr, "the first grids already show the output");
    CHECK(grid_of(first.layout, "concat", -1) == nullptr);
    CHECK_MESSAGE(grid_of(done.layout, "output", -1) != nullptr, "the finished picture has no output");
    // Its scores are drawn, not blank: random inputs give many colours.
    const nlohmann::json* scores = grid_of(first.layout, "scores", 0);
    REQUIRE(scores != nullptr);
    std::vector<int> seen;
    for (int i = 0; i < 10; ++i)
      for (int j = 0; j < 10; ++j) {
        int x = 0, y = 0;
        cell_point(*scores, 50 + i * 100, 50 + j * 100, 0.5, 0.5, &x, &y);
        const viz::Rgba c = first.image.at(x, y);
        const int key = (c.r << 16) | (c.g << 8) | c.b;
        if (std::find(seen.begin(), seen.end(), key) == seen.end()) seen.push_back(key);
      }
    CHECK_MESSAGE(seen.size() >= 20, "the preview's scores show " << seen.size() << " colours in 100 samples");
  }

  TEST_CASE("ui: the default lesson's grids show the colormap colour of every cell") {
    const Shot shot = shoot(std::string(ATTNVIZ_ASSETS_DIR) + "/scenarios/default.json", "default", "");
    for (const char* id : {"w_q", "w_k", "w_v", "q", "k", "v", "scores", "scaled", "masked", "weights", "head_output"})
      check_grid_colours(shot, id, 0, 0.5, 0.15);
    for (const char* id : {"x", "concat", "w_o", "output"}) check_grid_colours(shot, id, -1, 0.5, 0.15);
  }

  TEST_CASE("ui: a non-square input and one head of four are drawn rows x cols") {
    const Shot shot = shoot(std::string(ATTNVIZ_ASSETS_DIR) + "/scenarios/four_heads.json", "four_heads", "--head 2");
    check_grid_colours(shot, "x", -1, 0.5, 0.2);        // 6 x 8
    check_grid_colours(shot, "w_q", 2, 0.5, 0.2);       // 8 x 2
    check_grid_colours(shot, "weights", 2, 0.5, 0.2);
    check_grid_colours(shot, "concat", -1, 0.5, 0.2);   // 6 x 8
    CHECK(grid_of(shot.layout, "q", 0) == nullptr);     // other heads hidden
  }

  TEST_CASE("ui: large grids drawn through the colormap shader match the colormap too") {
    // 80 tokens: the 80 x 80 score grids exceed 64 x 64 and use the texture path.
    const std::string path = default_lesson_with_tokens(80, "medium80_scenario.json");
    const Shot shot = shoot(path, "medium80", "--stage weights --time 9999");  // focus, but show the end
    const nlohmann::json* grid = grid_of(shot.layout, "weights", 0);
    REQUIRE(grid != nullptr);
    REQUIRE_MESSAGE((*grid)["cell"].get<double>() >= 3.0, "cells too small to sample: " << (*grid)["cell"]);
    check_grid_colours(shot, "weights", 0, 0.5, 0.5);
    check_grid_colours(shot, "masked", 0, 0.5, 0.5);
  }

  TEST_CASE("ui: a pinned cell outlines the cells it came from") {
    const Shot shot = shoot(std::string(ATTNVIZ_ASSETS_DIR) + "/scenarios/default.json", "inspect", "--inspect weights:0:2:1");
    // The softmax of weights[2,1] reads row 2 of the masked logits: its
    // outline (purple) runs along the row's top edge.
    const nlohmann::json* masked = grid_of(shot.layout, "masked", 0);
    REQUIRE(masked != nullptr);
    int x = 0, y = 0;
    cell_point(*masked, 2, 0, 0.5, 0.0, &x, &y);
    bool purple = false;
    for (int dy = -3; dy <= 3; ++dy) purple |= distance(shot.image.at(x, y + dy), {120, 60, 220, 255}) < 40;
    CHECK_MESSAGE(purple, "no source outline at (" << x << ", " << y << ")");
  }
}

TEST_SUITE("screenshots") {
  // The tiled windows' backgrounds come from a scissored clear before any
  // window is drawn (tiled_window.cpp), not from ImGui's own quads: each
  // must still be its theme's colour. The expected colours come from the
  // theme code (apply_theme, palette), not from the picture.
  TEST_CASE("ui: the inspector and the canvas show their theme's backgrounds in every theme") {
    const std::string scenario = std::string(ATTNVIZ_ASSETS_DIR) + "/scenarios/default.json";
    bool told_apart = false;
    for (const auto& [theme, name] : {std::pair{viz::Theme::Light, "light"}, std::pair{viz::Theme::Dark, "dark"},
                                      std::pair{viz::Theme::HighContrast, "high-contrast"}}) {
      CAPTURE(name);
      const Shot shot = shoot(scenario, std::string("bg_") + name, std::string("--theme ") + name);
      ImGuiStyle style;
      viz::apply_theme(style, theme);
      const ImVec4 w = style.Colors[ImGuiCol_WindowBg];
      const viz::Rgba panel{static_cast<unsigned char>(w.x * 255 + 0.5f), static_cast<unsigned char>(w.y * 255 + 0.5f),
                            static_cast<unsigned char>(w.z * 255 + 0.5f), 255};
      const viz::Rgba canvas = viz::palette(theme).canvas;
      // The inspector's empty bottom-right corner (it runs to the bottom of
      // the window), and the grid area's bottom-right corner (no grid there).
      const auto& window = shot.layout["window"];
      const auto& area = shot.layout["canvas"];
      const viz::Rgba panel_px = shot.image.at(window[0].get<int>() - 8, window[1].get<int>() - 8);
      const viz::Rgba canvas_px = shot.image.at(static_cast<int>(area[2].get<double>()) - 4, static_cast<int>(area[3].get<double>()) - 4);
      CHECK_MESSAGE(distance(panel_px, panel) <= 1, "inspector background: got " << int(panel_px.r) << "," << int(panel_px.g) << ","
                                                                         << int(panel_px.b) << ", want " << int(panel.r) << ","
                                                                         << int(panel.g) << "," << int(panel.b));
      CHECK_MESSAGE(distance(canvas_px, canvas) <= 1, "canvas background: got " << int(canvas_px.r) << "," << int(canvas_px.g)
                                                                         << "," << int(canvas_px.b) << ", want " << int(canvas.r)
                                                                         << "," << int(canvas.g) << "," << int(canvas.b));
      told_apart |= distance(panel, canvas) > 4;
    }
    CHECK_MESSAGE(told_apart, "in no theme do the panel and the canvas differ: the test could not see a clear in the wrong place");
  }
}

TEST_SUITE("screenshots") {
  // A fully masked row adds a note to the caption ("…its weights are defined
  // as 0"), which wraps at 1024×768. Counted as one line, it was drawn over
  // the weights grid's title.
  TEST_CASE("ui: a wrapped note stays inside the caption box, and the grids start below it") {
    attn::io::ScenarioFile f = attn::io::load_scenario(std::string(ATTNVIZ_ASSETS_DIR) + "/scenarios/custom_mask.json");
    REQUIRE(f.scenario.mask == attn::MaskKind::Custom);
    f.scenario.custom_mask.row(0).setConstant(true);
    const std::string scene = temp_path("caption_note.json");
    attn::io::save_scenario(scene, f);
    const Shot shot = shoot(scene, "caption_note", "--stage weights", 1024, 768);
    REQUIRE_FALSE(shot.trace.notes.empty());
    const nlohmann::json& w = shot.layout["widgets"];
    REQUIRE(w.contains("caption:box"));
    REQUIRE(w.contains("caption:text"));
    const double box_bottom = w["caption:box"][3].get<double>(), text_bottom = w["caption:text"][3].get<double>();
    const double box_width = w["caption:box"][2].get<double>() - w["caption:box"][0].get<double>();
    CHECK_MESSAGE(text_bottom <= box_bottom, "caption text ends at y " << text_bottom << ", its box at " << box_bottom);
    CHECK(shot.layout["canvas"][1].get<double>() >= box_bottom);  // the grid area starts below the box
    // The note really is longer than a line of the box, so the wrapping was exercised.
    CHECK(shot.trace.notes[0].size() * 7.0 > box_width);
  }
}

TEST_SUITE("animation") {
  TEST_CASE("ui: at t = 0 computed grids are empty, at the end they are coloured") {
    const std::string scenario = std::string(ATTNVIZ_ASSETS_DIR) + "/scenarios/default.json";
    const Shot start = shoot(scenario, "t0", "--time 0");
    const Shot end = shoot(scenario, "tend", "");
    const attn::Stage* weights = end.trace.find(attn::StageKind::weights, 0);
    const viz::ColourScale scale = scale_of(end.trace, *weights);
    int x = 0, y = 0;
    for (int r = 0; r < 4; ++r) {
      cell_point(*grid_of(start.layout, "weights", 0), r, 0, 0.5, 0.15, &x, &y);
      CHECK_MESSAGE(distance(start.image.at(x, y), kEmpty) <= 2, "weights[" << r << ",0] drawn at t = 0");
      cell_point(*grid_of(end.layout, "weights", 0), r, 0, 0.5, 0.15, &x, &y);
      const viz::Rgba expected = viz::colour_of(scale, r, weights->value(r, 0));
      CHECK_MESSAGE(distance(end.image.at(x, y), expected) <= kColourTolerance, "weights[" << r << ",0] wrong at the end");
      CHECK(distance(expected, kEmpty) > 10);  // the test can tell the two apart
    }
    // Inputs are shown from the start (X is lit as the first step's source, so check W_O).
    check_grid_colours(start, "w_o", -1, 0.5, 0.15);
    // Mid-way through a cell step at cell granularity the result is partly built.
    const Shot mid = shoot(scenario, "mid", "--granularity cell --time 40");
    cell_point(*grid_of(mid.layout, "output", -1), 3, 3, 0.5, 0.15, &x, &y);
    CHECK(distance(mid.image.at(x, y), kEmpty) <= 2);
  }
}
