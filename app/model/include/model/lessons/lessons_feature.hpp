// Lessons as a feature: it keeps the lessons' state (lesson_state.hpp) and
// follows the document: when the user opens another document, the lesson
// ends. The session checks a lesson asked for before the trace (it can
// replace the document); the lesson's actions change the document and the
// view through AppState and this state together.
#pragma once

#include <vector>

#include "attn/compute/stage_kind.hpp"
#include "model/feature/feature.hpp"
#include "model/lessons/lesson_state.hpp"

namespace model {

struct AppState;

class LessonsFeature : public Feature {
 public:
  std::string_view name() const override { return "lessons"; }
  void update(FeatureFrame& frame) override;
  void dump(nlohmann::json& out) const override;  // "lesson_check", and "lesson" while one is open

  // Ends the lesson when the user has opened another document since it
  // started (update() does this first; tests call it on a bare AppState).
  void follow(const AppState& s);

  LessonState state;

 private:
  std::vector<attn::StageKind> hidden_;  // what the open question hides, as of the last update
};

}  // namespace model
