// Checks lesson files on a background thread (attn::io::load_lesson), so a
// long lesson never freezes the window: its progress is read step by step,
// and cancel() stops the check before its next step. One check is wanted at
// a time: starting another cancels the one running.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "attn/io/lesson_file.hpp"

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

  LessonLoader() = default;
  ~LessonLoader();  // cancels any check and waits for the step it is on
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
  void wait();

 private:
  struct Job;
  std::shared_ptr<Job> job_;  // the wanted check
  // Every check's thread with its job: a cancelled one ends after its step
  // and is joined later, so Cancel never waits for it.
  std::vector<std::pair<std::thread, std::shared_ptr<Job>>> threads_;
  std::function<void()> wake_;
  void join_finished(bool all);
};

}  // namespace model
