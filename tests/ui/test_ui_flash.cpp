// The "FlashAttention tiles" panel under Xvfb: `--panel flash-tiles` opens
// it with every grid of the tile recorded in the layout dump and its state
// in the state dump (blocks, tile, tile counts, the check against the plain
// path); a click on "tile >" moves to the next tile; --flash-blocks and
// --flash-tile choose what a screenshot shows; a refusal is a message.
#include <doctest/doctest.h>

#include <cstdio>
#include <string>

#include "ui_support.hpp"

using namespace ui_test;

namespace {

const std::string kFlashScene = std::string(ATTNVIZ_ASSETS_DIR) + "/scenarios/flash_tiles.json";

}  // namespace

TEST_SUITE("flash_tiles") {
  TEST_CASE("ui: --panel flash-tiles draws the tile's grids and \"tile >\" steps to the next tile") {
    RunningApp app("\"" + kFlashScene + "\" --panel flash-tiles", "flash_tiles");
    const nlohmann::json first = wait_for(app.state, [](const nlohmann::json& j) {
      return j.contains("flash") && j["flash"].is_object() && j["flash"]["open"] == true && j["flash"]["tiles"][0] > 0;
    });
    REQUIRE_MESSAGE(first.is_object(), "no state dump with the flash panel open");
    const nlohmann::json& f = first["flash"];
    CHECK(f["error"] == "");
    CHECK(f["tile"] == nlohmann::json::array({0, 0}));
    CHECK(f["block_rows"] == 2);
    CHECK(f["max_difference"].get<double>() < 1e-12);
    const nlohmann::json layout = settled(app.layout, "flash:next");
    const nlohmann::json& w = layout["widgets"];
    for (const char* name : {"panel.flash", "flash:tile", "flash:previous", "flash:next", "flash:play", "flash:block_rows",
                             "flash:grid:flash_scores", "flash:grid:flash_max_old", "flash:grid:flash_max",
                             "flash:grid:flash_rescale", "flash:grid:flash_p", "flash:grid:flash_sum", "flash:grid:flash_o",
                             "flash:overview", "flash:hbm"})
      CHECK_MESSAGE(w.contains(name), "the layout dump has no " << name);

    // Done once the tile moved: a click the app reads late (its release seen
    // with the next event) arrives with the retry's, so it may have moved twice.
    const nlohmann::json stepped = click_until(app, "flash:next", [](const nlohmann::json& j) {
      return j["flash"]["tile"] != nlohmann::json::array({0, 0});
    });
    REQUIRE_MESSAGE(stepped.is_object(), "\"tile >\" did not move from tile (0, 0); the panel says " << load_json(app.state)["flash"].dump());
    CHECK(stepped["flash"]["tile"][0] == 0);  // the key block moves first, inside query block 0
    CHECK(stepped["flash"]["tile"][1] >= 1);
    CHECK(stepped["flash"]["playing"] == false);
  }

  TEST_CASE("ui: --flash-blocks and --flash-tile pick the tile, and the last key block shows the block output") {
    const Shot shot = shoot(kFlashScene, "flash_tile_chosen", "--panel flash-tiles --flash-blocks 3,4 --flash-tile 1,2", 1024, 768);
    const nlohmann::json& w = shot.layout["widgets"];
    CHECK(w.contains("flash:grid:flash_scores"));
    CHECK(w.contains("flash:grid:flash_block_output"));  // 10 keys in blocks of 4: key block 2 is the last
  }

  TEST_CASE("ui: --panel takes one panel, so a scene file after it is opened, not refused") {
    // As a list option it took the file as a second panel and exited with 2.
    const std::string png = temp_path("flash_panel_first.png"), layout = temp_path("flash_panel_first_layout.json");
    std::remove(png.c_str());
    std::remove(layout.c_str());
    std::string out;
    const int code = run(attnviz("--panel flash-tiles \"" + kFlashScene + "\" --panel kv-cache --screenshot \"" + png +
                                 "\" --dump-layout \"" + layout + "\" --size 1024x768"),
                         &out);
    REQUIRE_MESSAGE(code == 0, "attnviz failed: " << out);
    const nlohmann::json dump = load_json(layout);
    REQUIRE(dump.is_object());
    const nlohmann::json& w = dump["widgets"];
    CHECK(w.contains("panel.flash"));
    CHECK(w.contains("panel.kv_cache"));
    CHECK(w.contains("flash:grid:flash_scores"));  // the panel runs on the scene given, which FlashAttention accepts
  }

  TEST_CASE("ui: a scene FlashAttention refuses shows the reason in the panel") {
    const Shot shot = shoot(std::string(ATTNVIZ_ASSETS_DIR) + "/scenarios/masking_after_softmax.json", "flash_refused",
                            "--panel flash-tiles");
    const nlohmann::json& w = shot.layout["widgets"];
    CHECK(w.contains("flash:error"));
    CHECK_FALSE(w.contains("flash:grid:flash_scores"));
  }
}
