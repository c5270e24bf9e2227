// Colour options in the real app: per-row contrast makes the 1024-token
// causal weights show their structure through the shader path (and keeps the
// masked hatching), other maps and themes colour every cell as the model says
// on both render paths, a bad map name is refused, and a corrupt settings
// file does not stop the app.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "ui_support.hpp"
#include "model_names.hpp"
#include "model/colour/colour_scale.hpp"
#include "model/settings/theme.hpp"

using namespace ui_test;

namespace {

const viz::Rgba kWhite{255, 255, 255, 255};

struct RowSample {
  int cells = 0, mismatched = 0, worst = 0;  // unmasked pixels against the expected colour
  int spread = 0;                            // largest channel difference between two of them
  int whiteness = 0;                         // largest channel distance from white
  int masked = 0, masked_wrong = 0;          // pixels over masked cells, and how many look unmasked
  bool saw_fill = false, saw_hatch = false;
};

// One row of screen pixels across a grid drawn smaller than a pixel per cell:
// each pixel shows the cell under its centre (the shader fetches the texel
// there), so its expected colour is computed from that cell's value.
RowSample sample_row(const Shot& shot, const attn::Stage& s, const nlohmann::json& g, int grid_row,
                     const viz::ColourScale& scale, const viz::ThemePalette& palette) {
  RowSample out;
  const double x0 = g["x0"], y0 = g["y0"], cw = g["cell_w"], ch = g["cell_h"];
  const int y = static_cast<int>(y0 + (grid_row + 0.5) * ch);
  const int r = static_cast<int>((y + 0.5 - y0) / ch);
  viz::Rgba lo{255, 255, 255, 255}, hi{0, 0, 0, 255};
  for (int x = static_cast<int>(std::ceil(x0)); x < static_cast<int>(g["x1"].get<double>()); ++x) {
    const int c = static_cast<int>((x + 0.5 - x0) / cw);
    if (c < 0 || c >= s.value.cols()) continue;
    const viz::Rgba got = shot.image.at(x, y);
    if (masked_look(s, r, c)) {
      ++out.masked;
      const int fill = distance(got, palette.masked_fill), hatch = distance(got, palette.hatch);
      out.masked_wrong += std::min(fill, hatch) > kColourTolerance;
      out.saw_fill |= fill <= kColourTolerance;
      out.saw_hatch |= hatch <= kColourTolerance;
      continue;
    }
    ++out.cells;
    const int d = distance(got, viz::colour_of(scale, r, s.value(r, c)));
    out.mismatched += d > kColourTolerance;
    out.worst = std::max(out.worst, d);
    out.whiteness = std::max(out.whiteness, distance(got, kWhite));
    lo = {std::min(lo.r, got.r), std::min(lo.g, got.g), std::min(lo.b, got.b), 255};
    hi = {std::max(hi.r, got.r), std::max(hi.g, got.g), std::max(hi.b, got.b), 255};
  }
  out.spread = distance(lo, hi);
  return out;
}

namespace fs = std::filesystem;

// An empty config folder for one test.
fs::path fresh_config(const std::string& name) {
  const fs::path dir = fs::path(temp_path(name));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}


}  // namespace

TEST_SUITE("colours") {
  TEST_CASE("ui: per-row contrast, by default here, shows the structure of 1024-token causal weights, hatching kept") {
    const std::string scene = std::string(ATTNVIZ_ASSETS_DIR) + "/scenarios/large_1024x8.json";
    const Shot grid = shoot(scene, "large_grid", "--head 0 --stage weights --time 9999");
    const Shot row = shoot(scene, "large_row", "--head 0 --stage weights --time 9999 --contrast row");
    const attn::Stage* w = row.trace.find(attn::StageKind::weights, 0);
    REQUIRE(w != nullptr);
    const nlohmann::json* g_grid = grid_of(grid.layout, "weights", 0);
    const nlohmann::json* g_row = grid_of(row.layout, "weights", 0);
    REQUIRE(g_grid != nullptr);
    REQUIRE(g_row != nullptr);
    REQUIRE_MESSAGE((*g_row)["cell_w"].get<double>() < 1.0, "expected the 1024 x 1024 grid below a pixel per cell");
    // The big scene computes in the background, which makes the texels of
    // the grids on screen too: the colours checked below are those texels.
    CHECK(grid.layout.value("prepared_texture_uploads", 0) > 0);
    CHECK(row.layout.value("prepared_texture_uploads", 0) > 0);
    const viz::ThemePalette& light = viz::palette(viz::Theme::Light);
    viz::ColourOptions by_row;
    by_row.contrast = viz::Contrast::Row;
    bool saw_fill = false, saw_hatch = false;
    for (int r : {300, 700, 1000}) {
      const RowSample before = sample_row(grid, *w, *g_grid, r, scale_of(grid.trace, *w), light);
      const RowSample after = sample_row(row, *w, *g_row, r, scale_of(row.trace, *w, by_row), light);
      INFO("grid row " << r << ": per grid spread " << before.spread << ", largest distance from white " << before.whiteness
                       << "; per row spread " << after.spread << ", " << after.mismatched << " of " << after.cells
                       << " pixels off the colormap (worst " << after.worst << ")");
      REQUIRE(after.cells > 50);
      // By default too: at the per-grid contrast, weights of about 1/r would be
      // all but white, so these long, flat rows get a range each (auto_row).
      CHECK(before.spread >= 120);
      CHECK(after.spread >= 120);     // per row: the same weights span the map
      // Both render the model's colour: a pixel whose centre sits on a cell
      // border may round to the neighbour, hence the 2%.
      CHECK(after.mismatched <= after.cells / 50);
      CHECK(before.mismatched <= before.cells / 50);
      CHECK(after.masked > 0);
      CHECK(after.masked_wrong == 0);  // masked cells keep their own look
      saw_fill |= after.saw_fill;
      saw_hatch |= after.saw_hatch;
    }
    CHECK(saw_fill);  // and it is the hatched pattern, not a flat colour
    CHECK(saw_hatch);
  }

  TEST_CASE("ui: the p99 range colours the 1024-token scores by their 99th percentile and marks the cells beyond it") {
    const std::string scene = std::string(ATTNVIZ_ASSETS_DIR) + "/scenarios/large_1024x8.json";
    const Shot plain = shoot(scene, "p99_off", "--go-to scores:0:500:500", 1280, 800);
    const Shot robust = shoot(scene, "p99_on", "--go-to scores:0:500:500 --contrast p99", 1280, 800);
    const nlohmann::json* off = grid_of(plain.layout, "scores", 0);
    const nlohmann::json* on = grid_of(robust.layout, "scores", 0);
    REQUIRE(off != nullptr);
    REQUIRE(on != nullptr);
    // The legend says which range is in use; the largest |score| set the plain one.
    CHECK((*off)["legend"]["note"] == "");
    CHECK((*on)["legend"]["note"].get<std::string>().find("99th percentile") != std::string::npos);
    const double hi = std::stod((*on)["legend"]["hi"].get<std::string>()), plain_hi = std::stod((*off)["legend"]["hi"].get<std::string>());
    CHECK(hi < plain_hi / 2);
    CHECK((*off)["beyond"].empty());
    const attn::Stage* sc = robust.trace.find(attn::StageKind::scores, 0);
    REQUIRE(sc != nullptr);
    const double x0 = (*on)["x0"], y0 = (*on)["y0"], cw = (*on)["cell_w"], ch = (*on)["cell_h"];
    const nlohmann::json& canvas = robust.layout["canvas"];
    int checked = 0;
    for (const nlohmann::json& cell : (*on)["beyond"]) {
      const int r = cell[0], c = cell[1];
      const double v = sc->value(r, c);
      CHECK_MESSAGE(std::abs(v) > hi * 0.98, "(" << r << ", " << c << ") = " << v << " is within ±" << hi);  // the legend rounds
      // Fully on screen: the corner mark differs from the cell's own fill.
      const double cx0 = x0 + c * cw, cy0 = y0 + r * ch;
      if (cx0 < canvas[0].get<double>() || cy0 < canvas[1].get<double>() || cx0 + cw > canvas[2].get<double>() ||
          cy0 + ch > canvas[3].get<double>())
        continue;
      const viz::Rgba mark = robust.image.at(static_cast<int>(cx0 + cw - 5), static_cast<int>(cy0 + 3));
      const viz::Rgba fill = robust.image.at(static_cast<int>(cx0 + 4), static_cast<int>(cy0 + ch - 5));
      const int d = std::abs(mark.r - fill.r) + std::abs(mark.g - fill.g) + std::abs(mark.b - fill.b);
      CHECK_MESSAGE(d > 150, "cell (" << r << ", " << c << "): mark " << int(mark.r) << "," << int(mark.g) << "," << int(mark.b)
                                      << " vs fill " << int(fill.r) << "," << int(fill.g) << "," << int(fill.b));
      ++checked;
    }
    CHECK(checked > 0);
    // And no cell in view past the range goes unlisted (the list stops at 16).
    if ((*on)["beyond"].size() < 16) {
      int past = 0;
      for (int r = 490; r < 510; ++r)
        for (int c = 490; c < 510; ++c) {
          const double cx0 = x0 + c * cw, cy0 = y0 + r * ch;
          const bool seen = cx0 + cw > canvas[0].get<double>() && cx0 < canvas[2].get<double>() && cy0 + ch > canvas[1].get<double>() &&
                            cy0 < canvas[3].get<double>();
          if (seen && std::abs(sc->value(r, c)) > hi * 1.02) ++past;
        }
      CHECK(static_cast<int>((*on)["beyond"].size()) >= past);
    }
  }

  TEST_CASE("ui: blue-white-orange and viridis on the dark theme colour every cell as the model says") {
    viz::ColourOptions colour;
    colour.theme = viz::Theme::Dark;
    colour.signed_map = viz::ColourmapId::BlueWhiteOrange;
    colour.probability_map = viz::ColourmapId::Viridis;
    const Shot shot = shoot(std::string(ATTNVIZ_ASSETS_DIR) + "/scenarios/default.json", "dark_bwo",
                            "--theme dark --colormap blue-white-orange --prob-colormap viridis");
    for (const char* id : {"w_q", "q", "scores", "masked", "weights", "head_output"}) check_grid_colours(shot, id, 0, 0.5, 0.15, colour);
    for (const char* id : {"x", "output"}) check_grid_colours(shot, id, -1, 0.5, 0.15, colour);
    // The canvas is the dark theme's, just inside the grid area's corner.
    const nlohmann::json& area = shot.layout["canvas"];
    const viz::Rgba canvas = shot.image.at(static_cast<int>(area[0].get<double>()) + 3, static_cast<int>(area[1].get<double>()) + 3);
    CHECK(distance(canvas, viz::palette(viz::Theme::Dark).canvas) <= 2);
  }

  TEST_CASE("ui: per-row and log scales reach both render paths alike") {
    viz::ColourOptions colour;
    colour.contrast = viz::Contrast::Row;
    colour.log_weights = true;
    colour.probability_map = viz::ColourmapId::HighContrast;  // a diverging map: probabilities use its upper half
    const std::string extra = " --contrast row --log-weights --prob-colormap high-contrast";
    const Shot small = shoot(std::string(ATTNVIZ_ASSETS_DIR) + "/scenarios/default.json", "row_log_small", extra);
    for (const char* id : {"q", "scores", "masked", "weights"}) check_grid_colours(small, id, 0, 0.5, 0.15, colour);
    // 80 tokens: the 80 x 80 grids go through the shader.
    const std::string medium = default_lesson_with_tokens(80, "medium80_colours.json");
    const Shot large = shoot(medium, "row_log_medium", "--stage weights --time 9999" + extra);
    REQUIRE((*grid_of(large.layout, "weights", 0))["cell"].get<double>() >= 3.0);
    check_grid_colours(large, "weights", 0, 0.5, 0.5, colour);
    check_grid_colours(large, "masked", 0, 0.5, 0.5, colour);
  }

  TEST_CASE("ui: a corrupt settings file is set aside, and the app runs on and says so") {
    const fs::path config = fresh_config("config_corrupt");
    std::ofstream(config / "settings.json") << "{\"theme\": \"dark\", oops";
    RunningApp app("--config-dir \"" + config.string() + "\"", "corrupt_settings");
    const nlohmann::json state = wait_for(app.state, [](const nlohmann::json& j) {
      for (const nlohmann::json& n : j["notices"])
        if (n.get<std::string>().find("are damaged") != std::string::npos) return true;
      return false;
    });
    REQUIRE_MESSAGE(state.is_object(), "no notice about the corrupt settings in " << app.state);
    CHECK(app.alive());
    CHECK(state["colour"]["theme"] == "light");  // the defaults, not half a file
    CHECK(fs::exists(config / "settings.json.corrupt"));
    const nlohmann::json fresh = load_json((config / "settings.json").string());
    CHECK(fresh.value("format", "") == "attnviz-settings");
  }

  TEST_CASE("ui: remembered colours apply at start, View > Colours changes apply at once and are saved") {
    const fs::path config = fresh_config("config_menu");
    std::ofstream(config / "settings.json") << R"({"theme": "dark", "colormap_probabilities": "viridis"})";
    // 80 tokens: the weights are drawn through the shader, so a change must re-upload them.
    const std::string scene = default_lesson_with_tokens(80, "medium80_menu.json");
    RunningApp app("\"" + scene + "\" --stage weights --config-dir \"" + config.string() + "\"", "colour_menu");
    const nlohmann::json first = app.first_state();
    REQUIRE(first.is_object());
    CHECK(first["colour"]["theme"] == "dark");
    CHECK(first["colour"]["colormap_probabilities"] == "viridis");
    CHECK(first["colour"]["contrast"] == "grid");
    const nlohmann::json before = settled(app.layout, "menu:View");
    REQUIRE(before.is_object());
    REQUIRE(before["texture_uploads"].get<int>() > 0);
    // View > Colours > Per row. A loaded machine (the suites run side by
    // side) can drop a click on the submenu's entry: open the menus again
    // and click again, up to three times.
    // (The layout dump keeps a widget's last rectangle after it closes, so
    // each try closes the menus and opens them again.)
    nlohmann::json changed;
    for (int attempt = 0; attempt < 3 && !changed.is_object(); ++attempt) {
      if (attempt > 0) {
        key("Escape");
        key("Escape");
      }
      const nlohmann::json bar = settled(app.layout, "menu:View");
      REQUIRE(bar.is_object());
      click_widget(bar, "menu:View");
      const nlohmann::json menu = settled(app.layout, "menu:Colours");
      REQUIRE_MESSAGE(menu.is_object(), "the View menu did not open");
      hover_widget(menu, "menu:Colours");
      const nlohmann::json colours = settled(app.layout, "colours:contrast row");
      REQUIRE_MESSAGE(colours.is_object(), "the Colours menu did not open");
      click_widget(colours, "colours:contrast row");
      changed = wait_for(app.state, [](const nlohmann::json& j) { return j["colour"]["contrast"] == "row"; }, 5000);
    }
    REQUIRE_MESSAGE(changed.is_object(), "choosing Per row did not change the contrast");
    const int uploads = before["texture_uploads"].get<int>();
    const nlohmann::json after = wait_for(app.layout, [&](const nlohmann::json& j) { return j["texture_uploads"].get<int>() > uploads; });
    CHECK_MESSAGE(after.is_object(), "the large grids were not re-uploaded after the change");
    const nlohmann::json saved = wait_for((config / "settings.json").string(), [](const nlohmann::json& j) { return j["contrast"] == "row"; });
    REQUIRE_MESSAGE(saved.is_object(), "the change was not saved");
    CHECK(saved["theme"] == "dark");  // what was remembered before stays
    CHECK(saved["colormap_probabilities"] == "viridis");
  }
}

TEST_SUITE("headless") {
  TEST_CASE("ui: an unknown colormap or theme is refused with the names that exist") {
    std::string out;
    CHECK(run(attnviz("--colormap jet --screenshot /dev/null"), &out) != 0);
    CHECK_MESSAGE(out.find("blue-white-orange") != std::string::npos, out);
    CHECK(run(attnviz("--theme sepia --screenshot /dev/null"), &out) != 0);
    CHECK_MESSAGE(out.find("high-contrast") != std::string::npos, out);
  }
}
