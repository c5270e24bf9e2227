// What checking a lesson costs: no step's trace is computed (the checks need
// only shapes), so a long lesson on a large scene is checked in a moment;
// another thread can follow the check step by step and cancel it.
//
// "No trace" is seen through the core's recycled storage: every matrix of
// 1 MB or more that a trace lets go of waits there for the next trace. A
// 600-token scene's scores are 2.9 MB, so a lesson check that computed its
// trace leaves storage waiting; one that does not leaves none.
#include <doctest/doctest.h>

#include <string>

#include "attn/io/lesson_file.hpp"
#include "attn/compute/trace.hpp"
#include "execution/recycled_storage.hpp"

using nlohmann::json;

namespace {

constexpr int kTokens = 600;

json big_scene() {
  json x = json::array();
  for (int i = 0; i < kTokens; ++i) x.push_back({(i % 7) * 0.25, (i % 5) * -0.5});
  return {{"x", x}, {"mask", "causal"}};
}

json lesson_on(const json& scene, int steps) {
  json doc = {{"format", "attnviz-lesson"}, {"version", 1}, {"title", "Big"}, {"article", "a"}, {"steps", json::array()}};
  doc["steps"].push_back({{"title", "0"}, {"text", "x"}, {"scene", scene}, {"view", {{"stage", "weights"}}}});
  for (int i = 1; i < steps; ++i)
    doc["steps"].push_back({{"title", std::to_string(i)}, {"text", "x"}, {"view", {{"stage", "masked"}}}});
  return doc;
}

// Storage waits for the whole test (not 2 s), and none waits at its start.
struct RecycledWatch {
  RecycledWatch() {
    attn::detail::set_recycle_limits(std::size_t{1} << 30, 1e9);
    attn::release_recycled_storage();
  }
  ~RecycledWatch() {
    attn::release_recycled_storage();
    attn::detail::set_recycle_limits(std::size_t{1} << 30, 2.0);
  }
};

}  // namespace

TEST_CASE("lesson check: no step's trace is computed") {
  const json scene = big_scene();
  RecycledWatch watch;
  // The probe sees a trace: computing the scene's leaves storage waiting.
  {
    json file = scene;
    file["format"] = "attnviz-scenario";
    file["version"] = 1;
    (void)attn::compute_trace(attn::io::parse_scenario(file.dump()).scenario);
  }
  REQUIRE(attn::detail::recycled_bytes() > 0);
  attn::release_recycled_storage();
  REQUIRE(attn::detail::recycled_bytes() == 0);

  const attn::io::LessonFile lesson = attn::io::parse_lesson(lesson_on(scene, 3).dump(), ".");
  CHECK(lesson.steps.size() == 3);
  CHECK(attn::detail::recycled_bytes() == 0);
}

TEST_CASE("lesson check: problems still name the stage's real size without a trace") {
  json doc = lesson_on(big_scene(), 2);
  doc["steps"][1]["view"]["highlight"] = json::array({{{"stage", "weights"}, {"row", kTokens}}});
  try {
    (void)attn::io::parse_lesson(doc.dump(), ".");
    FAIL("the lesson was accepted");
  } catch (const attn::io::LessonError& e) {
    REQUIRE(e.problems.size() == 1);
    CHECK(e.problems[0] == "steps[1].view.highlight[0].row: " + std::to_string(kTokens) +
                               " is out of range (weights of head 0 has " + std::to_string(kTokens) + " rows)");
  }
}

TEST_CASE("lesson check: progress counts the steps, cancel stops before the next step") {
  const std::string text = lesson_on(big_scene(), 4).dump();
  attn::io::LessonProgress progress;
  (void)attn::io::parse_lesson(text, ".", "big", &progress);
  CHECK(progress.steps == 4);
  CHECK(progress.steps_done == 4);

  attn::io::LessonProgress stopped;
  stopped.cancel = true;
  CHECK_THROWS_AS(attn::io::parse_lesson(text, ".", "big", &stopped), attn::Cancelled);
  CHECK(stopped.steps == 4);
  CHECK(stopped.steps_done == 0);
}
