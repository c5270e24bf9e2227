// Lessons in the running app: a question is answered wrong, then right,
// through the mouse and keyboard; the grids it is about stay hidden until
// then and are revealed after, with the arithmetic pinned. And every step
// of every shipped lesson renders (headless --lesson --step --screenshot).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <vector>

#include "attn/io/lesson_file.hpp"
#include "gl/font_glyphs.hpp"
#include "ui_support.hpp"

using namespace ui_test;

namespace {

const std::string kTestLesson = std::string(ATTNVIZ_ASSETS_DIR) + "/../tests/data/lessons/test_lesson.json";

// The layout once `widget` is drawn and the first frames have settled.
nlohmann::json settled_layout(const RunningApp& app, const std::string& widget) {
  return wait_for(app.layout, [&](const nlohmann::json& j) { return j["frame"] >= 3 && j["widgets"].contains(widget); });
}

void click_at(int x, int y) {
  xdo("mousemove " + std::to_string(x) + " " + std::to_string(y));
  xdo("click 1");
}

// An independent softmax of row r of the masked logits, for the expected answer.
double weight(const attn::Trace& t, int r, int c) {
  const attn::Stage& m = *t.find(attn::StageKind::masked, 0);
  double max = -INFINITY, sum = 0;
  for (int j = 0; j < m.value.cols(); ++j) max = std::max(max, m.value(r, j));
  for (int j = 0; j < m.value.cols(); ++j) sum += std::exp(m.value(r, j) - max);
  return std::exp(m.value(r, c) - max) / sum;
}

std::string status_of(const nlohmann::json& j) { return j.contains("lesson") ? j["lesson"]["status"].get<std::string>() : ""; }

}  // namespace

namespace {

// The code points of UTF-8 text (bytes that start no valid sequence count as themselves).
std::vector<char32_t> code_points(const std::string& text) {
  std::vector<char32_t> out;
  for (size_t i = 0; i < text.size();) {
    const auto b = static_cast<unsigned char>(text[i]);
    const int n = b < 0x80 ? 1 : (b >> 5) == 6 ? 2 : (b >> 4) == 14 ? 3 : (b >> 3) == 30 ? 4 : 1;
    char32_t c = n == 1 ? b : b & (0x7F >> n);
    for (int k = 1; k < n && i + static_cast<size_t>(k) < text.size(); ++k)
      c = (c << 6) | (static_cast<unsigned char>(text[i + static_cast<size_t>(k)]) & 0x3F);
    out.push_back(c);
    i += static_cast<size_t>(n);
  }
  return out;
}

}  // namespace

TEST_CASE("lessons: every character the shipped lessons write is in the font atlas (else ImGui draws '?')") {
  const std::vector<char32_t> extra = code_points(viz::kExtraGlyphs);
  const std::set<char32_t> atlas(extra.begin(), extra.end());
  int checked = 0;
  for (const std::string& file : shipped_lessons()) {
    std::ifstream in(file);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    for (const char32_t c : code_points(text)) {
      if (c < 0x100 || (c >= viz::kGreekFirst && c <= viz::kGreekLast)) continue;
      ++checked;
      char code[16];
      std::snprintf(code, sizeof code, "U+%04X", static_cast<unsigned>(c));
      CHECK_MESSAGE(atlas.count(c), std::filesystem::path(file).filename().string() << " writes " << code
                                                                << ", which the font atlas lacks (app/viz/gl/font_glyphs.hpp)");
    }
  }
  CHECK(checked > 50);  // the lessons do write symbols (83 today): × √ → ᵀ …
}

TEST_SUITE("lessons") {
  TEST_CASE("ui: a question answered wrong, then right, reveals its grids and the arithmetic") {
    const attn::io::LessonFile lesson = attn::io::load_lesson(kTestLesson);
    const attn::Trace trace = attn::compute_trace(lesson.steps[0].scene.scenario);
    RunningApp app("--lesson \"" + kTestLesson + "\"", "lesson");
    nlohmann::json layout = settled_layout(app, "lesson:answer");
    REQUIRE_MESSAGE(layout.is_object(), "the lesson panel has no answer field");
    const nlohmann::json open = app.first_state();
    REQUIRE(open.is_object());
    CHECK(status_of(open) == "open");
    CHECK(open["lesson"]["hidden"].size() == 4);  // weights and what is computed from them
    CHECK_FALSE(open.contains("pinned"));

    click_widget(layout, "lesson:answer");
    type_text("0.9");
    key("Return");
    const nlohmann::json wrong = wait_for(app.state, [](const nlohmann::json& j) { return status_of(j) == "wrong"; });
    REQUIRE_MESSAGE(wrong.is_object(), "a wrong answer was not marked wrong");
    CHECK(wrong["lesson"]["hidden"].size() == 4);  // still hidden: the student may retry
    CHECK(wrong["lesson"]["revealed"] == false);

    char right[32];
    std::snprintf(right, sizeof right, "%.3f", weight(trace, 2, 1));
    // The feedback on the wrong answer may move the field: find it again.
    layout = settled_layout(app, "lesson:answer");
    REQUIRE(layout.is_object());
    click_widget(layout, "lesson:answer");
    chord("ctrl", "a");
    type_text(right);
    key("Return");
    const nlohmann::json ok = wait_for(app.state, [](const nlohmann::json& j) { return status_of(j) == "right"; });
    REQUIRE_MESSAGE(ok.is_object(), "the right answer " << right << " was not accepted");
    CHECK(ok["lesson"]["attempts"] == 2);
    CHECK(ok["lesson"]["hidden"].size() == 0);  // revealed
    REQUIRE(ok.contains("pinned"));             // with the arithmetic in the inspector
    CHECK(ok["pinned"]["stage"] == "weights");
    CHECK(ok["pinned"]["row"] == 2);
    CHECK(ok["pinned"]["col"] == 1);

    // Next: a "click the cell" question on the hidden weights grid.
    // Clicked again if a loaded machine drew no frame that saw the click.
    const nlohmann::json step2 = click_until(app, "lesson:next", [](const nlohmann::json& j) { return j["lesson"]["step"] == 1; });
    REQUIRE_MESSAGE(step2.is_object(), "Next did not move to step 2");
    layout = wait_for(app.layout, [](const nlohmann::json& j) { return grid_of(j, "weights", 0) != nullptr; });
    int best = 0;
    for (int c = 1; c < 4; ++c)
      if (weight(trace, 3, c) > weight(trace, 3, best)) best = c;
    int x = 0, y = 0;
    cell_point(*grid_of(layout, "weights", 0), 3, (best + 1) % 4, 0.5, 0.5, &x, &y);
    click_at(x, y);
    REQUIRE(wait_for(app.state, [](const nlohmann::json& j) { return status_of(j) == "wrong"; }).is_object());
    cell_point(*grid_of(layout, "weights", 0), 3, best, 0.5, 0.5, &x, &y);
    click_at(x, y);
    const nlohmann::json picked = wait_for(app.state, [](const nlohmann::json& j) { return status_of(j) == "right"; });
    REQUIRE_MESSAGE(picked.is_object(), "clicking the largest weight of row 'down' was not right");
    CHECK(picked["lesson"]["hidden"].size() == 0);
  }

  TEST_CASE("ui: every step of every shipped lesson renders") {
    int shots = 0;
    for (const std::string& file : shipped_lessons()) {
      const attn::io::LessonFile lesson = attn::io::load_lesson(file);
      for (size_t step = 1; step <= lesson.steps.size(); ++step) {
        CAPTURE(file);
        CAPTURE(step);
        const std::string png = temp_path("lesson_step.png");
        std::remove(png.c_str());
        std::string out;
        const int code = run(attnviz("--lesson \"" + file + "\" --step " + std::to_string(step) +
                                     " --size 1280x800 --screenshot \"" + png + "\""),
                             &out);
        CHECK_MESSAGE(code == 0, out);
        const Image image = load_png(png);
        REQUIRE(image.ok());
        // Not blank: the canvas area holds many distinct colours (grids, text).
        std::set<int> colours;
        for (int yy = 100; yy < image.height - 100; yy += 4)
          for (int xx = 350; xx < image.width - 300; xx += 4) {
            const viz::Rgba p = image.at(xx, yy);
            colours.insert(p.r << 16 | p.g << 8 | p.b);
          }
        CHECK_MESSAGE(colours.size() > 40, "only " << colours.size() << " colours on the canvas");
        ++shots;
      }
    }
    MESSAGE(shots << " lesson steps rendered");
    CHECK(shots >= 48);  // six lessons of eight or more steps
  }

  TEST_CASE("ui: at 1024x768 the lesson's step counter stays inside its narrow panel, on the last step of every lesson") {
    int checked = 0;
    for (const std::string& file : shipped_lessons()) {
      const attn::io::LessonFile lesson = attn::io::load_lesson(file);
      CAPTURE(file);
      const std::string layout_path = temp_path("lesson_where.json");
      std::remove(layout_path.c_str());
      std::string out;
      // The last step: its counter ("step 12 of 12") is the widest.
      const int code = run(attnviz("--lesson \"" + file + "\" --step " + std::to_string(lesson.steps.size()) +
                                   " --size 1024x768 --screenshot \"" + temp_path("lesson_where.png") + "\" --dump-layout \"" +
                                   layout_path + "\""),
                           &out);
      REQUIRE_MESSAGE(code == 0, out);
      const nlohmann::json layout = load_json(layout_path);
      REQUIRE(layout.is_object());
      const nlohmann::json& wd = layout["widgets"];
      REQUIRE(wd.contains("lesson:panel"));
      REQUIRE(wd.contains("lesson:where"));
      const nlohmann::json &panel = wd["lesson:panel"], &where = wd["lesson:where"];
      CHECK_MESSAGE(where[2].get<double>() <= panel[2].get<double>() + 1, "the counter " << where.dump() << " runs past the panel " << panel.dump());
      CHECK(where[0].get<double>() >= panel[0].get<double>() - 1);
      ++checked;
    }
    CHECK(checked >= 7);
  }
}
