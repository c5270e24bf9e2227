// A lesson that takes long to check never keeps the window away: with
// --lesson, and through File > Open lesson, the window draws at once with
// "Checking lesson… step k of n" and Cancel, and after Cancel the app
// answers the keyboard with the document it had.
//
// The slow lesson: 5000 steps (the most a lesson may have), each editing a
// 2048-token scene whose largest score is 1e308. No bound short of that
// value can prove such a scene finite, so each step's trace is computed to
// check it (tens of milliseconds a step: minutes in all). Before the check
// ran in the background, the window appeared only once it had finished.
#include <doctest/doctest.h>

#include "../support/scoped_env.hpp"

#include <filesystem>
#include <fstream>

#include "ui_support.hpp"

using namespace ui_test;
namespace fs = std::filesystem;

namespace {

constexpr int kSteps = 5000;

std::string slow_lesson(const std::string& name) {
  const fs::path dir = fs::absolute(temp_path(name));
  fs::create_directories(dir);
  nlohmann::json x = nlohmann::json::array();
  for (int i = 0; i < 2048; ++i) x.push_back({(i % 11) * 0.1});
  x[0][0] = 1e154;  // its score with itself: 1e308
  std::ofstream(dir / "near_overflow.json") << nlohmann::json{{"format", "attnviz-scenario"}, {"version", 1}, {"x", x}}.dump();
  nlohmann::json steps = nlohmann::json::array();
  steps.push_back({{"title", "0"}, {"text", "t"}, {"scene", "near_overflow.json"}});
  for (int i = 1; i < kSteps; ++i)
    steps.push_back({{"title", std::to_string(i)}, {"text", "t"},
                     {"edits", {{{"set", "x[" + std::to_string(1 + i % 2000) + "][0]"}, {"to", 0.5}}}}});
  const fs::path lesson = dir / "slow_lesson.json";
  std::ofstream(lesson) << nlohmann::json{{"format", "attnviz-lesson"}, {"version", 1}, {"title", "Slow"},
                                          {"article", "a"}, {"steps", steps}}.dump();
  return lesson.string();
}

bool checking(const nlohmann::json& j) {
  const std::string text = j.value("lesson_check", "");
  return text.find("Checking lesson slow_lesson.json") == 0 && text.find(" of " + std::to_string(kSteps)) != std::string::npos;
}

// Cancel while the check runs; then the check is gone, no lesson started, no
// message, and the document the app had is still there.
void cancel(const RunningApp& app) {
  const nlohmann::json layout = settled(app.layout, "lesson_check_cancel");
  REQUIRE_MESSAGE(layout.is_object(), "no Cancel for the lesson check");
  CHECK(layout["widgets"].contains("lesson_check_text"));
  click_widget(layout, "lesson_check_cancel");
  const nlohmann::json cancelled = wait_for(app.state, [](const nlohmann::json& j) { return j["lesson_check"] == ""; });
  REQUIRE_MESSAGE(cancelled.is_object(), "Cancel did not stop the check");
  CHECK_FALSE(cancelled.contains("lesson"));
  CHECK(cancelled["message"] == "");
  CHECK(cancelled["has_trace"] == true);
}

}  // namespace

TEST_SUITE("lesson_check") {
  TEST_CASE("ui: --lesson shows the window while a slow lesson is checked, and Cancel leaves the app usable") {
    const std::string lesson = slow_lesson("slow_lesson_cli");
    RunningApp app("--lesson \"" + lesson + "\"", "lesson_check");
    const nlohmann::json shown = wait_for(app.state, checking);
    REQUIRE_MESSAGE(shown.is_object(), "no window with the check's progress; last state: " << load_json(app.state).dump().substr(0, 300));
    cancel(app);
    // The app still answers: Ctrl+O opens the Open dialog.
    chord("ctrl", "o");
    const nlohmann::json dialog = wait_for(app.state, [](const nlohmann::json& j) { return j["open_dialog"] == true; });
    CHECK_MESSAGE(dialog.is_object(), "after Cancel, Ctrl+O did not open the Open dialog");
  }

  TEST_CASE("ui: File > Open lesson checks in the background too") {
    const std::string lesson = slow_lesson("slow_lesson_dialog");
    // The desktop's chooser, stood in by a script that answers the lesson,
    // then (asked again) a scenario.
    const fs::path bin = fs::absolute(temp_path("lesson_check_bin"));
    fs::create_directories(bin);
    const fs::path asked = bin / "asked";
    fs::remove(asked);
    const std::string scene = std::string(ATTNVIZ_ASSETS_DIR) + "/scenarios/multihead_2x4.json";
    std::ofstream(bin / "zenity") << "#!/bin/sh\nif [ -e '" << asked.string() << "' ]; then echo '" << scene
                                  << "'; else touch '" << asked.string() << "'; echo '" << lesson << "'; fi\n";
    fs::permissions(bin / "zenity", fs::perms::owner_all);
    test_support::ScopedEnv p("PATH", bin.string() + ":" + std::getenv("PATH"));
    test_support::ScopedEnv f("ATTNVIZ_FILE_CHOOSER", "zenity");
    RunningApp app("--dialog open-lesson", "lesson_check_dialog");
    const nlohmann::json shown = wait_for(app.state, checking);
    REQUIRE_MESSAGE(shown.is_object(), "File > Open lesson did not show the check's progress; last state: "
                                           << load_json(app.state).dump().substr(0, 300));
    cancel(app);
    // The app still answers: Ctrl+O opens the scenario the chooser answers.
    chord("ctrl", "o");
    const nlohmann::json opened = wait_for(app.state, [&](const nlohmann::json& j) { return j["path"] == scene && j["has_trace"] == true; });
    CHECK_MESSAGE(opened.is_object(), "after Cancel, Ctrl+O did not open the chosen scenario");
  }
}
