// The background lesson check behind --lesson, File > Open lesson and the
// Lessons menu: attn::io::load_lesson as a job on a TaskPolicy::Replace
// runner, its step counter read as the task's progress and its cancel flag
// linked to the task's.
#include "model/lessons/lesson_loader.hpp"

#include <exception>

#include "model/lessons/lesson_opening.hpp"

namespace model {

LessonLoader::LessonLoader()
    : runner_([](const std::string& path, TaskContext<Checked>& task) { return check(path, task); },
              TaskPolicy::Replace) {}

LessonLoader::Checked LessonLoader::check(const std::string& path, TaskControl& task) {
  attn::io::LessonProgress progress;
  task.link_cancel(progress.cancel);
  task.report_from([&progress] { return TaskProgress{progress.steps_done.load(), progress.steps.load(), {}}; });
  Checked checked;
  checked.path = path;
  try {
    checked.lesson = attn::io::load_lesson(path, &progress);
  } catch (const attn::Cancelled&) {
    throw;
  } catch (const std::exception& e) {
    checked.message = actions::lesson_problem_message(e);
  }
  task.throw_if_cancelled();  // a check cancelled in its last step hands back nothing
  return checked;
}

void LessonLoader::set_on_ready(std::function<void()> wake) { runner_.set_wake(std::move(wake)); }

void LessonLoader::start(const std::string& path) { runner_.submit(path); }

void LessonLoader::cancel() {
  runner_.cancel();
  runner_.discard();
}

bool LessonLoader::busy() const { return runner_.busy() || runner_.has_done(); }

LessonLoader::Progress LessonLoader::progress() const {
  if (!busy()) return {};
  const TaskProgress p = runner_.progress();
  return {p.done, p.total};
}

std::optional<LessonLoader::Checked> LessonLoader::take() {
  while (std::optional<TaskOutcome<Checked>> o = runner_.take())
    if (o->done()) return std::move(o->result);
  return std::nullopt;
}

}  // namespace model
