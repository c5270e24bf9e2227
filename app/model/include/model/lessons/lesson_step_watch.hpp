// For a feature that follows the lesson (the compare and Train views): says
// once when a lesson step has been entered, entered again, or left. Each
// step's scene is a new document, so the step and the document together
// name the entry.
#pragma once

#include <cstdint>

#include "model/lessons/lesson_state.hpp"

namespace model {

class LessonStepWatch {
 public:
  // True when the lesson's step (or whether there is one) changed since the
  // last call; `document` is AppState::document.
  bool moved(const LessonState& lessons, std::uint64_t document) {
    const std::uint64_t doc = lessons.lesson ? document : 0;
    const int step = lessons.lesson ? lessons.lesson->step() : -1;
    if (doc == document_ && step == step_) return false;
    document_ = doc;
    step_ = step;
    return true;
  }

 private:
  std::uint64_t document_ = 0;  // 0: no lesson step followed
  int step_ = -1;
};

}  // namespace model
