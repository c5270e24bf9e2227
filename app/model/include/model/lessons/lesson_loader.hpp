// Checks lesson files on a background thread (attn::io::load_lesson), so a
// long lesson never freezes the window: its progress is read step by step,
// and cancel() stops the check before its next step. One check is wanted at
// a time: starting another cancels the one running (TaskPolicy::Replace).
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "attn/io/lesson_file.hpp"
#include "model/tasks/task_runner.hpp"

namespace model {

class LessonLoader {
 public:
  struct Checked {
    std::string path;
    std::optional<attn::io::LessonFile> lesson;  // empty when it has problems or cannot be read
    std::string message;                         // why not, in the words the app shows (lesson_opening.hpp)
  };
  struct Progress {
    int done = 0, steps = 0;  // steps checked, of steps (0 until the file is read)
  };

  LessonLoader();
  ~LessonLoader() = default;  // cancels any check and waits for the step it is on
  LessonLoader(const LessonLoader&) = delete;
  LessonLoader& operator=(const LessonLoader&) = delete;

  // Called on the worker when a check has finished (wakes the window's loop).
  void set_on_ready(std::function<void()> wake);
  void start(const std::string& path);
  void cancel();
  // The wanted check is running or its result waits for take().
  bool busy() const;
  Progress progress() const;
  // The finished check of the newest request, once.
  std::optional<Checked> take();
  // Blocks until the wanted check has finished (tests).
  void wait() { runner_.wait_idle(); }

 private:
  static Checked check(const std::string& path, TaskControl& task);
  TaskRunner<std::string, Checked> runner_;
};

}  // namespace model
