// The compare view in the running app (headless): a lesson step with a
// `compare` field opens it with its labels and three grids, and the colour
// of the difference grid's most-changed cell is the end of the signed map,
// computed here from the two scenes; the next step closes it. A compare
// step whose question hides the compared stage shows the three grids blank
// until answered. And `--compare-with` opens it on two files.
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>


#include "attn/io/lesson_file.hpp"
#include "ui_support.hpp"
#include "model_names.hpp"
#include "model/colour/colourmap.hpp"
#include "model/colour/colour_options.hpp"
#include "model/settings/theme.hpp"

using namespace ui_test;

namespace {

const std::string kLesson = std::string(ATTNVIZ_ASSETS_DIR) + "/lessons/02_scaled_dot_product.json";

struct Dumps {
  nlohmann::json state, layout;
  Image image;
};

Dumps run_step(const std::string& args, const std::string& name, int expected_code = 0, std::string* output = nullptr) {
  Dumps d;
  const std::string png = temp_path(name + ".png"), state = temp_path(name + "_state.json"),
                    layout = temp_path(name + "_layout.json");
  std::string out;
  const int code = run(attnviz(args + (args.find("--size") == std::string::npos ? " --size 1280x800" : "") + " --screenshot " + png + " --dump-state " + state +
                               " --dump-layout " + layout), &out);
  REQUIRE_MESSAGE(code == expected_code, out);
  if (output) *output = out;
  d.state = load_json(state);
  d.layout = load_json(layout);
  d.image = load_png(png);
  return d;
}

}  // namespace

TEST_SUITE("compare") {
  TEST_CASE("ui: a lesson's compare step shows A, B and B - A, the next step closes it") {
    const attn::io::LessonFile lesson = attn::io::load_lesson(kLesson);
    size_t step = 0;
    while (step < lesson.steps.size() && !lesson.steps[step].compare) ++step;
    REQUIRE(step + 1 < lesson.steps.size());
    const attn::io::LessonStep& st = lesson.steps[step];
    CAPTURE(step);
    const Dumps d = run_step("--lesson " + kLesson + " --step " + std::to_string(step + 1), "compare_step");
    const nlohmann::json& c = d.state["compare"];
    CHECK(c["open"] == true);
    CHECK(c["from_lesson"] == true);
    CHECK(c["stage"] == st.compare->stage);
    CHECK(c["label_a"] == st.compare->label_a);
    CHECK(c["label_b"] == st.compare->label_b);
    const nlohmann::json& w = d.layout["widgets"];
    REQUIRE(w.contains("compare_a"));
    REQUIRE(w.contains("compare_b"));
    REQUIRE(w.contains("compare_diff"));
    CHECK(w["compare_a"][2].get<double>() < w["compare_b"][0].get<double>());  // side by side, in order
    // B − A follows on the same line, or (a narrow canvas) on the next one, below both.
    const bool same_line = w["compare_b"][2].get<double>() < w["compare_diff"][0].get<double>();
    const bool next_line = w["compare_a"][3].get<double>() < w["compare_diff"][1].get<double>() &&
                           w["compare_b"][3].get<double>() < w["compare_diff"][1].get<double>();
    CHECK((same_line || next_line));

    // The most-changed cell, computed here from the two scenes, is drawn in
    // the signed map's extreme colour (the difference range is symmetric).
    const attn::Trace a = attn::compute_trace(st.scene.scenario), b = attn::compute_trace(st.compare->b);
    const attn::Mat wa = a.find_named(st.compare->stage, 0)->value.dense(), wb = b.find_named(st.compare->stage, 0)->value.dense();
    Eigen::Index r = 0, col = 0;
    const double worst = (wb - wa).cwiseAbs().maxCoeff(&r, &col);
    REQUIRE(worst > 0);
    const nlohmann::json& g = w["compare_diff"];
    const double x0 = g[0], y0 = g[1], x1 = g[2], y1 = g[3];
    const double cw = (x1 - x0) / static_cast<double>(wa.cols()), ch = (y1 - y0) / static_cast<double>(wa.rows());
    const int px = static_cast<int>(x0 + (static_cast<double>(col) + 0.1) * cw);
    const int py = static_cast<int>(y0 + (static_cast<double>(r) + 0.1) * ch);
    const viz::ColourOptions colour;
    const viz::Rgba want = viz::sample(viz::colourmap(colour.signed_map), (wb - wa)(r, col) > 0 ? 1.0f : 0.0f);
    const viz::Rgba got = d.image.at(px, py);
    CHECK_MESSAGE(distance(got, want) <= kColourTolerance,
                  "cell (" << r << ", " << col << ") got " << int(got.r) << "," << int(got.g) << "," << int(got.b));

    const Dumps next = run_step("--lesson " + kLesson + " --step " + std::to_string(step + 2), "compare_next");
    CHECK(next.state["compare"]["open"] == (lesson.steps[step + 1].compare.has_value()));
  }

  TEST_CASE("ui: a compare step whose question hides the stage shows the three grids without numbers") {
    const std::string path = std::string(ATTNVIZ_ASSETS_DIR) + "/lessons/01_attention_from_scratch.json";
    const attn::io::LessonFile lesson = attn::io::load_lesson(path);
    size_t step = 0;  // the first compare step whose question hides the stage it compares
    auto hides = [](const attn::io::LessonStep& st) {
      if (!st.compare || !st.question) return false;
      const std::vector<std::string>& h = st.question->hide;
      return std::find(h.begin(), h.end(), st.compare->stage) != h.end();
    };
    while (step < lesson.steps.size() && !hides(lesson.steps[step])) ++step;
    REQUIRE(step < lesson.steps.size());
    CAPTURE(step);
    const Dumps d = run_step("--lesson " + path + " --step " + std::to_string(step + 1), "compare_hidden");
    const nlohmann::json& c = d.state["compare"];
    CHECK(c["open"] == true);
    CHECK(c["hidden"] == true);
    const nlohmann::json& w = d.layout["widgets"];
    const viz::Rgba blank = viz::palette(viz::ColourOptions{}.theme).hidden_cell;
    for (const char* id : {"compare_a", "compare_b", "compare_diff"}) {
      CAPTURE(id);
      REQUIRE(w.contains(id));
      // The middle of the top-left cell (away from the grid's "?") is the hidden colour, not a value's.
      const nlohmann::json& g = w[id];
      const attn::Mat m = attn::compute_trace(lesson.steps[step].scene.scenario).find_named(lesson.steps[step].compare->stage, 0)->value.dense();
      const double cw = (g[2].get<double>() - g[0].get<double>()) / static_cast<double>(m.cols());
      const double ch = (g[3].get<double>() - g[1].get<double>()) / static_cast<double>(m.rows());
      const viz::Rgba got = d.image.at(static_cast<int>(g[0].get<double>() + cw / 2), static_cast<int>(g[1].get<double>() + ch / 2));
      CHECK_MESSAGE(distance(got, blank) <= kColourTolerance, "got " << int(got.r) << "," << int(got.g) << "," << int(got.b));
    }
  }

  TEST_CASE("ui: --compare-with opens the view on two files") {
    const std::string dir = std::string(ATTNVIZ_ASSETS_DIR) + "/scenarios/";
    const Dumps d = run_step(dir + "masking_after_softmax.json --compare-with " + dir + "masking_causal.json", "compare_files");
    CHECK(d.state["compare"]["open"] == true);
    CHECK(d.state["compare"]["snapshot"] == true);
    CHECK(d.layout["widgets"].contains("compare_diff"));
  }

  TEST_CASE("ui: --compare-with a scene that cannot be computed exits 2 with one message, wrapped on screen") {
    const std::string over = temp_path("compare_overflow.json");
    std::ofstream(over) << R"({"format": "attnviz-scenario", "version": 1, "title": "Overflowing",
      "tokens": ["big", "small"], "x": [[1e308, 1], [0.5, 2]], "scale": "none"})";
    std::string out;
    const Dumps d = run_step(std::string(ATTNVIZ_ASSETS_DIR) + "/scenarios/default.json --compare-with " + over + " --size 1024x768",
                             "compare_overflow", 2, &out);
    CHECK(out.find("cannot compare with") != std::string::npos);
    CHECK(std::count(out.begin(), out.end(), '\n') == 1);  // one message
    const nlohmann::json& w = d.layout["widgets"];
    REQUIRE(w.contains("compare_error"));
    const auto& e = w["compare_error"];
    CHECK_MESSAGE(e[2].get<double>() <= 1024, "the error runs past the window: " << e.dump());
    CHECK_MESSAGE(e[3].get<double>() - e[1].get<double>() > 1.5 * 15, "the error is one clipped line: " << e.dump());
  }

  TEST_CASE("ui: at 1024x768 the compare view's Head picker and Close button do not overlap") {
    const std::string two = std::string(ATTNVIZ_ASSETS_DIR) + "/scenarios/multihead_2x4.json";
    const Dumps d = run_step(two + " --compare-with " + two + " --size 1024x768", "compare_narrow");
    const nlohmann::json& w = d.layout["widgets"];
    REQUIRE(w.contains("compare_head"));
    REQUIRE(w.contains("compare_close"));
    const auto& a = w["compare_head"];
    const auto& b = w["compare_close"];
    const bool apart = b[0].get<double>() >= a[2].get<double>() || b[1].get<double>() >= a[3].get<double>();
    CHECK_MESSAGE(apart, "Head " << a.dump() << " and Close " << b.dump() << " overlap");
    CHECK(b[2].get<double>() <= 1024);
  }
}
