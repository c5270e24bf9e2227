// TrainFeature: the Train view follows the lesson step (train_feature.hpp).
#include "model/train/train_feature.hpp"

namespace model {

void TrainFeature::follow(const LessonState& lessons, std::uint64_t document) {
  const std::optional<LessonSession>& lesson = lessons.lesson;
  if (!step_.moved(lessons, document) || !lesson) return;  // leaving a lesson leaves the view as it is
  const attn::io::LessonStep& st = lesson->current();
  ui.open = st.train.has_value();
  if (!st.train) return;
  if (!same_run(ui.settings, *st.train)) ui.command = TrainUi::Command::Reset;
  ui.settings = *st.train;
  ui.max_steps = st.train_steps;
  ui.picked_head.reset();
}

}  // namespace model
