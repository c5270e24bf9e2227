// A lesson asked for (--lesson, File > Open lesson, the start page, the
// Lessons menu) is checked on viz::LessonLoader's thread while the window
// keeps drawing, with "Checking lesson… step k of n" and Cancel
// (lessons/lesson_check_window.cpp). It starts when the check has passed;
// a check that fails says why, as before, and Cancel keeps the document.
#include "shell/app.hpp"
#include "model_names.hpp"
#include "model/lessons/lesson_opening.hpp"

namespace viz {

void App::update_lesson_opening() {
  LessonOpening& o = state_.lesson_opening;
  if (o.cancel) {
    lesson_loader_.cancel();
    o.cancel = false;
  }
  if (!o.request.empty()) {
    lesson_loader_.start(o.request);
    o.request.clear();
  }
  if (std::optional<LessonLoader::Checked> done = lesson_loader_.take()) {
    actions::lesson_checked(state_, std::move(done->lesson), done->message);
    return;
  }
  const LessonLoader::Progress p = lesson_loader_.progress();
  o.steps_done = p.done;
  o.steps = p.steps;
}

}  // namespace viz
