// The side panels at small windows: at 1024x768, also at --ui-scale 150, the
// canvas keeps at least half the width, and no label of the scenario editor
// runs past the panel's edge (ImGui cut them: "softmax ove…", "learned
// projections W_Q, W_K, W"). Read from --dump-layout: "panel:*" rectangles
// and every editor label as "label:<text>" (widgets/fitted_label.hpp). The
// scenes cover the fields that appear only with an option: τ, RoPE's, the
// window's and the soft cap's c.
#include <doctest/doctest.h>

#include <string>

#include "ui_support.hpp"

using namespace ui_test;

namespace {

// Returns the layout's widgets for checks of a scene's own fields.
nlohmann::json check_panels(const std::string& scenario, const std::string& name, const std::string& extra, int width, int height) {
  CAPTURE(name);
  const Shot shot = shoot(scenario, name, extra, width, height);
  const nlohmann::json& w = shot.layout["widgets"];
  REQUIRE(w.contains("panel:canvas"));
  REQUIRE(w.contains("panel:editor_content"));
  const double canvas_w = w["panel:canvas"][2].get<double>() - w["panel:canvas"][0].get<double>();
  CHECK_MESSAGE(canvas_w >= 0.5 * width, "the canvas is " << canvas_w << " px of " << width);
  // Labels must end inside the editor's content region (where ImGui wraps
  // text and past which it clips), checked with half a pixel to spare.
  const double edge = w["panel:editor_content"][2].get<double>();
  int labels = 0;
  for (const auto& [key, rect] : w.items()) {
    if (key.rfind("label:", 0) != 0 && key.rfind("shape:", 0) != 0) continue;
    if (rect[0].get<double>() >= w["panel:left"][2].get<double>()) continue;  // not in the editor
    CHECK_MESSAGE(rect[2].get<double>() <= edge + 0.5, key << " ends at x " << rect[2] << ", the panel's text ends at " << edge);
    labels += key.rfind("label:", 0) == 0;
  }
  CHECK_MESSAGE(labels >= 10, "only " << labels << " editor labels in the layout dump");
  return w;
}

}  // namespace

TEST_SUITE("panels") {
  TEST_CASE("ui: at 1024x768 the canvas keeps half the width and every editor label fits its panel") {
    const std::string assets = ATTNVIZ_ASSETS_DIR;
    // The default scene; RoPE's base, pairs and share; τ, the window's fields, the soft cap's c.
    for (const char* scene : {"default", "rope_interleaved_partial", "temperature", "sliding_window", "soft_cap"}) {
      for (const bool larger : {false, true}) {
        const nlohmann::json w = check_panels(assets + "/scenarios/" + scene + ".json",
                                              std::string(larger ? "panels_150_" : "panels_") + scene,
                                              larger ? "--ui-scale 150" : "", 1024, 768);
        // The soft cap's switch is on every scene; its c only where a cap is set.
        CHECK(w.contains("label:soft-cap scores"));
        CHECK(w.contains("label:cap c") == (std::string(scene) == "soft_cap"));
      }
    }
  }

  TEST_CASE("ui: at 1600x1000 the panels keep their width and labels sit beside their controls") {
    const Shot shot = shoot(std::string(ATTNVIZ_ASSETS_DIR) + "/scenarios/default.json", "panels_wide", "", 1600, 1000);
    const nlohmann::json& w = shot.layout["widgets"];
    REQUIRE(w.contains("panel:left"));
    CHECK(w["panel:left"][2].get<double>() >= 300);  // not narrowed where there is room
    REQUIRE(w.contains("label:softmax over"));
    REQUIRE(w.contains("shape:tokens"));
    REQUIRE(w.contains("label:tokens"));
    // Beside: the label starts right of its field, on the same line.
    CHECK(w["label:tokens"][0].get<double>() > w["shape:tokens"][2].get<double>());
    CHECK(w["label:tokens"][1].get<double>() < w["shape:tokens"][3].get<double>());
  }
}
