// Opening a lesson in the background: the loader checks it on its thread
// and hands back the lesson or the words that say why it cannot start;
// Cancel drops the check whatever point it had reached; what a finished
// check does to the app (start at the asked step, or a message) and the
// progress text the window shows.
#include <doctest/doctest.h>

#include <string>

#include "model/lessons/lesson_actions.hpp"
#include "model/lessons/lesson_loader.hpp"
#include "model/lessons/lesson_opening.hpp"

namespace {

const std::string kLessons = std::string(ATTNVIZ_ASSETS_DIR) + "/../tests/data/lessons/";

model::LessonLoader::Checked check(const std::string& path) {
  model::LessonLoader loader;
  loader.start(path);
  loader.wait();
  std::optional<model::LessonLoader::Checked> done = loader.take();
  REQUIRE(done);
  CHECK_FALSE(loader.busy());
  CHECK_FALSE(loader.take());  // once
  return std::move(*done);
}

}  // namespace

TEST_CASE("lesson loader: a good lesson arrives whole, a bad one with every problem in the app's words") {
  const model::LessonLoader::Checked good = check(kLessons + "test_lesson.json");
  REQUIRE(good.lesson);
  CHECK(good.lesson->steps.size() == 3);
  CHECK(good.message.empty());

  const model::LessonLoader::Checked bad = check(kLessons + "bad_stage.json");
  CHECK_FALSE(bad.lesson);
  try {
    (void)attn::io::load_lesson(kLessons + "bad_stage.json");
    FAIL("bad_stage.json loaded");
  } catch (const attn::io::LessonError& e) {
    CHECK(bad.message == model::actions::lesson_problem_message(e));
    CHECK(bad.message.find("This lesson has problems, so it cannot start:\n\n") == 0);
    for (const std::string& p : e.problems) CHECK(bad.message.find(p) != std::string::npos);
  }
  const model::LessonLoader::Checked missing = check(kLessons + "no_such_lesson.json");
  CHECK(missing.message.find("Could not open the lesson:\n") == 0);
  CHECK(missing.message.find("no_such_lesson.json: cannot open") != std::string::npos);
}

TEST_CASE("lesson loader: a cancelled check hands nothing back, wherever it had got to") {
  model::LessonLoader loader;
  loader.start(kLessons + "test_lesson.json");
  loader.cancel();
  CHECK_FALSE(loader.busy());
  CHECK_FALSE(loader.take());
  CHECK(loader.progress().steps == 0);
  // A new check after it is its own.
  loader.start(kLessons + "test_lesson.json");
  loader.wait();
  std::optional<model::LessonLoader::Checked> done = loader.take();
  REQUIRE(done);
  CHECK(done->lesson);
}

TEST_CASE("lesson opening: the request, its progress text, and Cancel") {
  model::AppState s;
  model::LessonState l;
  CHECK(model::actions::lesson_check_text(l).empty());
  model::actions::request_lesson(l, "/some/where/big.json", 4);
  CHECK(l.opening.request == "/some/where/big.json");
  CHECK(model::actions::lesson_check_text(l) == "Checking lesson big.json\xE2\x80\xA6 reading the file");
  l.opening.request.clear();  // the app started it
  l.opening.steps = 500;
  l.opening.steps_done = 2;
  CHECK(model::actions::lesson_check_text(l) == "Checking lesson big.json\xE2\x80\xA6 step 3 of 500");
  model::actions::cancel_lesson_check(l);
  CHECK(l.opening.cancel);
  CHECK(model::actions::lesson_check_text(l).empty());
  CHECK_FALSE(l.lesson);
}

TEST_CASE("lesson opening: a checked lesson starts at the asked step, past its end it says so") {
  model::AppState s;
  model::LessonState l;
  model::actions::request_lesson(l, kLessons + "test_lesson.json", 2);
  model::actions::lesson_checked(s, l, attn::io::load_lesson(kLessons + "test_lesson.json"), "");
  REQUIRE(l.lesson);
  CHECK(l.lesson->step() == 1);
  CHECK(s.message.empty());
  CHECK(model::actions::lesson_check_text(l).empty());

  model::AppState t;

  model::LessonState l_t;
  model::actions::request_lesson(l_t, kLessons + "test_lesson.json", 9);
  model::actions::lesson_checked(t, l_t, attn::io::load_lesson(kLessons + "test_lesson.json"), "");
  REQUIRE(l_t.lesson);
  CHECK(t.message == "--step 9: the lesson \"A test lesson\" has 3 steps (1 to 3)");

  model::AppState u;

  model::LessonState l_u;
  const std::uint64_t document = u.document;
  model::actions::request_lesson(l_u, kLessons + "bad_stage.json");
  model::actions::lesson_checked(u, l_u, std::nullopt, "This lesson has problems, so it cannot start:\n\nx\n");
  CHECK_FALSE(l_u.lesson);
  CHECK(u.message == "This lesson has problems, so it cannot start:\n\nx\n");
  CHECK(u.document == document);
}
