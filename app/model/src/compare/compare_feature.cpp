// CompareFeature: follows the lesson step and a reload, then recomputes the
// grids only when the sides, the stage, the head, the document's trace or
// the room for them changed (a key of all of them).
#include "model/compare/compare_feature.hpp"

#include <algorithm>
#include <filesystem>
#include <utility>

#include <nlohmann/json.hpp>

#include "model/compare/compare_actions.hpp"
#include "model/compare/lesson_compare.hpp"
#include "model/document/app_actions.hpp"
#include "model/lessons/lesson_actions.hpp"
#include "model/trace/trace_model.hpp"

namespace model {

void CompareFeature::follow(AppState& s) {
  // Opening the Model view leaves this view (the Model view is drawn instead).
  if (model_.open && !model_was_open_) state_.open = false;
  model_was_open_ = model_.open;
  // A lesson step with a compare field opens the view on its variant; a
  // step without one, or leaving the lesson, closes a view a lesson opened.
  const std::optional<LessonSession>& lesson = lessons_.lesson;
  if (step_.moved(lessons_, s.document)) actions::lesson_compare(state_, lesson ? lesson->current().compare : std::nullopt);
  // A reload replaced unsaved edits: they become A, the file's version B.
  if (s.reload_replaced) {
    const AppState::ReplacedEdits r = std::move(*std::exchange(s.reload_replaced, std::nullopt));
    actions::compare_with_document(state_, r.edits, "your edits", r.file + " on disk", true);
    actions::notify(s, "Reloaded " + r.file + " from disk. Your edits are A in the compare view; Ctrl+Z puts them back.");
  }
}

void CompareFeature::update(FeatureFrame& frame) {
  follow(frame.state);
  hidden_.clear();
  if (!state_.open) {
    grids_.reset();
    key_.clear();
    return;
  }
  traces_.update(state_);
  const TraceModel& model = frame.trace;
  const attn::Trace* doc = model.has_trace() ? &model.trace() : nullptr;
  // Stages an open lesson question hides stay hidden here too (answering reveals them).
  if (doc) hidden_ = lesson_hidden_kinds(lessons_, *doc);
  const int shown_cells = shown_cells_for(frame.canvas_width);
  std::string key = std::to_string(state_.revision) + "/" + std::to_string(model.generation()) + "/" +
                    std::to_string(frame.state.document) + "/" + attn::to_string(state_.stage) + "/" + std::to_string(state_.head) + "/" +
                    std::to_string(shown_cells);
  for (const attn::StageKind k : hidden_) key += "/" + attn::to_string(k);
  if (key == key_) return;
  key_ = key;
  grids_.reset();
  error_ = traces_.error();
  const attn::Trace* a = state_.a ? traces_.a() : doc;
  const attn::Trace* b = state_.b ? traces_.b() : doc;
  if (!a || !b) {
    if (error_.empty()) error_ = "The scene cannot be computed: " + model.error();
    return;
  }
  grids_ = compare_for_view(*a, *b, state_.stage, state_.head, hidden_, shown_cells);
}

void CompareFeature::dump(nlohmann::json& out) const {
  const CompareState& c = state_;
  out["compare"] = {{"open", c.open}, {"from_lesson", c.from_lesson}, {"stage", attn::to_string(c.stage)}, {"head", c.head},
                    {"label_a", c.label_a}, {"label_b", c.label_b}, {"snapshot", c.a.has_value()},
                    {"hidden", std::find(hidden_.begin(), hidden_.end(), c.stage) != hidden_.end()}};
}

}  // namespace model
