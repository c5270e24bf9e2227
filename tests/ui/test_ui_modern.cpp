// The modern-attention lesson in the running app: Next walks all fifteen
// steps; the RoPE question is answered by choice (wrong, then right); on the
// dial step, hovering a cell of Q rotated draws one dial per pair of
// dimensions in the inspector (found through --dump-layout), and pinning it
// writes the dial's angles to the state dump, which must be position × θ_i.
#include <doctest/doctest.h>

#include <array>
#include <cmath>

#include "attn/attn.hpp"
#include "attn/io/lesson_file.hpp"
#include "attn/io/scenario_file.hpp"
#include "attn/why/score_split.hpp"
#include "ui_support.hpp"
#include "model_names.hpp"
#include "model/colour/colour_options.hpp"
#include "model/settings/theme.hpp"

using namespace ui_test;

namespace {

const std::string kModernLesson = std::string(ATTNVIZ_ASSETS_DIR) + "/lessons/07_attention_in_modern_models.json";

int step_of(const nlohmann::json& j) { return j.contains("lesson") ? j["lesson"]["step"].get<int>() : -1; }
std::string answer_of(const nlohmann::json& j) { return j.contains("lesson") ? j["lesson"]["status"].get<std::string>() : ""; }

void next_to(const RunningApp& app, int step) {
  const nlohmann::json moved = click_until(app, "lesson:next", [step](const nlohmann::json& j) { return step_of(j) == step; });
  REQUIRE_MESSAGE(moved.is_object(), "Next did not reach step " << step + 1);
}

}  // namespace

TEST_SUITE("modern") {
  TEST_CASE("ui: the modern lesson's steps, its RoPE question, and the dial on Q rotated") {
    const attn::io::LessonFile lesson = attn::io::load_lesson(kModernLesson);
    REQUIRE(lesson.steps.size() >= 12);
    RunningApp app("--lesson \"" + kModernLesson + "\"", "modern");
    REQUIRE(app.first_state().is_object());
    next_to(app, 1);

    // "Are the rotated rows of the two copies of *the* equal?": wrong, then right.
    REQUIRE(click_until(app, "lesson:choice0", [](const nlohmann::json&) { return true; }).is_object());
    REQUIRE(click_until(app, "lesson:check", [](const nlohmann::json& j) { return answer_of(j) == "wrong"; }).is_object());
    REQUIRE(click_until(app, "lesson:choice1", [](const nlohmann::json&) { return true; }).is_object());
    const nlohmann::json right =
        click_until(app, "lesson:check", [](const nlohmann::json& j) { return answer_of(j) == "right"; });
    REQUIRE_MESSAGE(right.is_object(), "the right choice was not accepted");
    CHECK(right["lesson"]["hidden"].size() == 0);

    // The dial: hover row 5 of head 0's Q rotated.
    next_to(app, 2);
    // The view may still be fitting the step's stage: hover again where the grid is now, until the dial shows.
    nlohmann::json dial;
    int x = 0, y = 0;
    for (int attempt = 0; attempt < 5 && !dial.is_object(); ++attempt) {
      const nlohmann::json layout = wait_for(app.layout, [](const nlohmann::json& j) { return grid_of(j, "q_rope", 0) != nullptr; });
      REQUIRE(layout.is_object());
      cell_point(*grid_of(layout, "q_rope", 0), 5, 1, 0.5, 0.5, &x, &y);
      xdo("mousemove " + std::to_string(x) + " " + std::to_string(y));
      dial = wait_for(
          app.layout,
          [](const nlohmann::json& j) { return j["widgets"].contains("rope_dial:pair0") && j["widgets"].contains("rope_dial:pair1"); },
          2000);
    }
    REQUIRE_MESSAGE(dial.is_object(), "hovering Q rotated drew no dial in the inspector");
    CHECK_FALSE(dial["widgets"].contains("rope_dial:pair2"));  // d_k = 4: two pairs
    // Pinned, the dial's numbers reach the state dump: angle = position × θ_i.
    xdo("click 1");
    const nlohmann::json pinned = wait_for(app.state, [](const nlohmann::json& j) { return j.contains("rope_dial"); });
    REQUIRE_MESSAGE(pinned.is_object(), "a pinned rotated cell wrote no rope_dial");
    CHECK(pinned["rope_dial"]["position"] == 5);
    for (const nlohmann::json& p : pinned["rope_dial"]["pairs"]) {
      const double theta = std::pow(10000.0, -2.0 * p["pair"].get<int>() / 4);
      CHECK(std::abs(p["angle"].get<double>() - 5 * theta) < 1e-12);
      // A rotation keeps the pair's length.
      CHECK(std::abs(std::hypot(p["before"][0].get<double>(), p["before"][1].get<double>()) -
                     std::hypot(p["after"][0].get<double>(), p["after"][1].get<double>())) < 1e-12);
    }

    // The rest of the lesson, to its last step: a step with a question lets
    // the student on once it is answered or given up ("Show me").
    for (int step = 3; step < static_cast<int>(lesson.steps.size()); ++step) {
      if (lesson.steps[static_cast<size_t>(step - 1)].question)
        REQUIRE_MESSAGE(click_until(app, "lesson:show_me", [](const nlohmann::json& j) { return answer_of(j) == "gave_up"; }).is_object(),
                        "\"Show me\" on step " << step);
      next_to(app, step);
    }
  }

  TEST_CASE("ui: a pinned weight's inspector shows why its score has its value, bar by bar") {
    // rope.json, head 0, query 5, key 2: the split the app draws must be the
    // one computed here, each bar as long as its part (one scale for all) and
    // filled in the colour of its sign, on screen.
    const std::string scene = std::string(ATTNVIZ_ASSETS_DIR) + "/scenarios/rope.json";
    const std::string png = temp_path("why_rope.png"), layout = temp_path("why_rope_layout.json");
    std::string out;
    REQUIRE_MESSAGE(run(attnviz(scene + " --inspect weights:0:5:2 --size 1600x1000 --screenshot " + png +
                                " --dump-layout " + layout), &out) == 0, out);
    const auto file = attn::io::load_scenario(scene);
    const attn::ScoreSplit split = attn::split_score(attn::compute_trace(file.scenario), file.scenario, 0, 5, 2);
    const nlohmann::json widgets = load_json(layout)["widgets"];
    const Image image = load_png(png);
    REQUIRE(image.ok());
    const viz::ThemePalette& pal = viz::palette(viz::ColourOptions{}.theme);
    const auto rect = [&](const std::string& id) {
      REQUIRE_MESSAGE(widgets.contains(id), id << " was not drawn");
      return std::array<double, 4>{widgets[id][0], widgets[id][1], widgets[id][2], widgets[id][3]};
    };
    const double px = (rect("why_dim_0")[2] - rect("why_dim_0")[0]) / std::abs(split.by_dimension[0].term);
    for (std::size_t d = 0; d < split.by_dimension.size(); ++d) {
      const auto r = rect("why_dim_" + std::to_string(d));
      const double part = split.by_dimension[d].term;
      CHECK_MESSAGE(std::abs((r[2] - r[0]) - px * std::abs(part)) <= 1.5, "dimension bar " << d << " for " << part);
      if (r[2] - r[0] < 4) continue;
      const viz::Rgba got = image.at(static_cast<int>((r[0] + r[2]) / 2), static_cast<int>((r[1] + r[3]) / 2));
      CHECK_MESSAGE(distance(got, part >= 0 ? pal.accent_k : pal.muted) <= 2, "dimension bar " << d << " colour");
    }
    REQUIRE(split.by_rope);
    for (std::size_t p = 0; p < split.by_rope->pairs.size(); ++p) rect("why_pair_" + std::to_string(p));
    CHECK_FALSE(widgets.contains("why_pair_" + std::to_string(split.by_rope->pairs.size())));
    // Under them, each pair's term over the distances: a curve a pair, with
    // room to read its swing.
    for (std::size_t p = 0; p < split.by_rope->pairs.size(); ++p) {
      const auto r = rect("why_curve_" + std::to_string(p));
      CHECK(r[2] - r[0] > 40);
    }
  }
}
