// The "KV cache" panel under Xvfb: `--panel kv-cache` on kv_cache.json opens
// the window with its step control and cache grids (--dump-layout), the
// state dump reports the step, clicking "token >" advances the step and
// grows the cache by one row. A refused scene says why instead of drawing.
// (Play is tested in the model: tests/app/view/test_kv_cache_model.cpp.)
#include <doctest/doctest.h>

#include <string>

#include "ui_support.hpp"

using namespace ui_test;

namespace {

const std::string kScene = std::string(ATTNVIZ_ASSETS_DIR) + "/scenarios/kv_cache.json";

}  // namespace

TEST_SUITE("kv_cache") {
  TEST_CASE("ui: --panel kv-cache --kv-step 4 draws the step's grids inside the window") {
    const Shot shot = shoot(kScene, "kv_panel", "--panel kv-cache --kv-step 4", 1024, 768);
    const nlohmann::json& w = shot.layout["widgets"];
    for (const char* name : {"panel.kv_cache", "kv:step", "kv:prev", "kv:next", "kv:play", "kv:grid:q", "kv:grid:k", "kv:grid:v",
                             "kv:grid:k_cache", "kv:grid:v_cache", "kv:grid:scores", "kv:grid:weights", "kv:grid:output",
                             "kv:counters", "kv:compare"})
      CHECK_MESSAGE(w.contains(name), "the layout dump has no widget " << name);
    REQUIRE(w.contains("panel.kv_cache"));
    const nlohmann::json& panel = w["panel.kv_cache"];
    for (const char* name : {"kv:grid:k_cache", "kv:grid:v_cache", "kv:compare"}) {
      if (!w.contains(name)) continue;
      CAPTURE(name);
      CHECK(w[name][0].get<double>() >= panel[0].get<double>());
      CHECK(w[name][2].get<double>() <= panel[2].get<double>() + 1);
      CHECK(w[name][3].get<double>() <= panel[3].get<double>() + 1);
    }
    // Five cached rows at step 4: the cache grid is taller than the new key row.
    if (w.contains("kv:grid:k_cache") && w.contains("kv:grid:k")) {
      const double cache_h = w["kv:grid:k_cache"][3].get<double>() - w["kv:grid:k_cache"][1].get<double>();
      const double row_h = w["kv:grid:k"][3].get<double>() - w["kv:grid:k"][1].get<double>();
      CHECK(cache_h > 4 * row_h);
    }
  }

  TEST_CASE("ui: clicking token > advances the step and the cache grows by a row") {
    RunningApp app(kScene + " --panel kv-cache --kv-step 2", "kv_app");
    const nlohmann::json first =
        wait_for(app.state, [](const nlohmann::json& j) { return j.contains("kv_cache") && j["kv_cache"]["steps"] == 8; });
    REQUIRE(first.is_object());
    const nlohmann::json& kv = first["kv_cache"];
    CHECK(kv["open"] == true);
    CHECK(kv["step"] == 2);
    CHECK(kv["cache_rows"] == 3);
    CHECK(kv["new_row"] == 2);
    CHECK(kv["error"] == "");
    CHECK(kv["max_difference"].get<double>() < 1e-12);
    CHECK(kv["macs_cached"].get<long long>() < kv["macs_uncached"].get<long long>());
    settled(app.layout, "kv:next");
    // At least one step on: a click repeated because the first one's state
    // had not been written yet (a loaded machine) may step once more.
    const nlohmann::json after = click_until(app, "kv:next", [](const nlohmann::json& j) { return j["kv_cache"]["step"] >= 3; });
    INFO("the last state: " << load_json(app.state)["kv_cache"].dump() << (app.alive() ? std::string(", the app runs") : std::string(", the app has gone")));
    REQUIRE(after.is_object());
    const int step = after["kv_cache"]["step"].get<int>();
    CHECK(step < 8);
    CHECK(after["kv_cache"]["cache_rows"] == step + 1);  // the cache grew by a row a step
    CHECK(after["kv_cache"]["new_row"] == step);
  }

  TEST_CASE("ui: a cross-attention scene is refused with the reason in the panel") {
    const Shot shot = shoot(std::string(ATTNVIZ_ASSETS_DIR) + "/scenarios/cross_attention.json", "kv_refused", "--panel kv-cache",
                            1024, 768);
    const nlohmann::json& w = shot.layout["widgets"];
    CHECK(w.contains("panel.kv_cache"));
    CHECK(w.contains("kv:error"));
    CHECK_FALSE(w.contains("kv:grid:k_cache"));
  }
}
