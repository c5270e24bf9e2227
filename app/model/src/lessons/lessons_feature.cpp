// LessonsFeature: the lesson ends when another document is opened; the
// state dump says where the student is.
#include "model/lessons/lessons_feature.hpp"

#include <nlohmann/json.hpp>

#include "model/document/app_state.hpp"
#include "model/lessons/lesson_actions.hpp"
#include "model/lessons/lesson_opening.hpp"
#include "model/trace/trace_model.hpp"

namespace model {

void LessonsFeature::follow(const AppState& s) {
  if (state.lesson && s.files_opened != state.files_opened) {
    state.lesson.reset();
    state.highlights.clear();
  }
}

void LessonsFeature::update(FeatureFrame& frame) {
  follow(frame.state);
  hidden_ = frame.trace.has_trace() ? lesson_hidden_kinds(state, frame.trace.trace()) : std::vector<attn::StageKind>{};
}

void LessonsFeature::dump(nlohmann::json& out) const {
  out["lesson_check"] = actions::lesson_check_text(state);  // "Checking lesson… step k of n" while one is checked
  if (!state.lesson) return;
  const LessonSession& l = *state.lesson;
  const StepAnswer& a = l.current_answer();
  const char* status[] = {"open", "wrong", "right", "gave_up"};
  nlohmann::json hidden = nlohmann::json::array();
  for (const attn::StageKind k : hidden_) hidden.push_back(attn::to_string(k));
  out["lesson"] = {{"id", l.lesson().id}, {"step", l.step()}, {"steps", l.steps()}, {"status", status[static_cast<int>(a.status)]},
                   {"attempts", a.attempts}, {"revealed", l.revealed()}, {"why", a.why}, {"hidden", hidden}};
}

}  // namespace model
