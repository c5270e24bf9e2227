// Lesson opening in the model, so the words and what a check's outcome does
// are tested without a window (tests/app/test_lesson_opening.cpp).
#include "model/lessons/lesson_opening.hpp"

#include <filesystem>

#include "model/lessons/lesson_actions.hpp"

namespace model::actions {

void request_lesson(LessonState& l, const std::string& path, int step) {
  LessonOpening& o = l.opening;
  o.request = path;
  o.path = path;
  o.start_step = step;
  o.steps_done = o.steps = 0;
  o.cancel = false;
}

void cancel_lesson_check(LessonState& l) {
  LessonOpening& o = l.opening;
  o.cancel = !o.path.empty();
  o.request.clear();
  o.path.clear();
  o.steps_done = o.steps = 0;
}

void lesson_checked(AppState& s, LessonState& l, std::optional<attn::io::LessonFile> lesson, const std::string& problem) {
  const int step = l.opening.start_step;
  l.opening = {};
  if (!lesson) {
    s.message = problem;
    return;
  }
  const std::string past_end = step_out_of_range(*lesson, step);
  start_lesson(s, l, std::move(*lesson));
  if (!past_end.empty()) s.message = past_end;
  else if (step > 0) lesson_step(s, l, step - 1);
}

bool open_lesson_now(AppState& s, LessonState& l, const std::string& path) {
  try {
    start_lesson(s, l, attn::io::load_lesson(path));
    return true;
  } catch (const std::exception& e) {
    s.message = lesson_problem_message(e);
    return false;
  }
}

std::string lesson_problem_message(const std::exception& e) {
  if (const auto* problems = dynamic_cast<const attn::io::LessonError*>(&e)) {
    std::string all;
    for (const std::string& p : problems->problems) all += p + "\n";
    return "This lesson has problems, so it cannot start:\n\n" + all;
  }
  return std::string("Could not open the lesson:\n") + e.what();
}

std::string step_out_of_range(const attn::io::LessonFile& lesson, int step) {
  const int steps = static_cast<int>(lesson.steps.size());
  if (step <= steps) return "";
  return "--step " + std::to_string(step) + ": the lesson \"" + lesson.title + "\" has " + std::to_string(steps) +
         " steps (1 to " + std::to_string(steps) + ")";
}

std::string lesson_check_text(const LessonState& l) {
  const LessonOpening& o = l.opening;
  if (o.path.empty()) return "";
  const std::string name = std::filesystem::path(o.path).filename().string();
  if (o.steps == 0) return "Checking lesson " + name + "\xE2\x80\xA6 reading the file";
  return "Checking lesson " + name + "\xE2\x80\xA6 step " + std::to_string(o.steps_done + 1 > o.steps ? o.steps : o.steps_done + 1) +
         " of " + std::to_string(o.steps);
}

}  // namespace model::actions
