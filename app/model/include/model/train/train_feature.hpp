// The Train view as a feature: what the user chose in it (TrainUi), kept
// beside the document rather than in it. It follows the lesson step: a step
// with a train field opens the view with the step's settings (a different
// model starts afresh), any other step of the lesson closes it. The run
// itself (TrainSession) is the session's, which carries the view's requests
// out each frame (session_train.cpp).
#pragma once

#include <cstdint>

#include "model/feature/feature.hpp"
#include "model/lessons/lesson_state.hpp"
#include "model/lessons/lesson_step_watch.hpp"
#include "model/train/train_ui.hpp"

namespace model {

class TrainFeature : public Feature {
 public:
  std::string_view name() const override { return "train"; }
  void update(FeatureFrame& frame) override { (void)frame; }  // the session follows the lesson before its run's frame
  // The lesson step's train field into the view, once per step entered
  // (`document`: AppState::document, new with each step's scene).
  void follow(const LessonState& lessons, std::uint64_t document);

  TrainUi ui;

 private:
  LessonStepWatch step_;  // the lesson step last followed
};

}  // namespace model
