// The compare view as a feature: which two scenes it compares (CompareState),
// their traces, and the grids it draws for the stage and head picked. It
// follows the document's lesson step (a step with a compare field opens it
// on the step's variant; leaving the step closes it) and a reload that
// replaced unsaved edits (the edits become A), so neither lessons nor the
// document need to know it exists.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/compare/compare.hpp"
#include "model/feature/feature.hpp"
#include "model/hf/model_ui.hpp"
#include "model/lessons/lesson_state.hpp"
#include "model/lessons/lesson_step_watch.hpp"

namespace model {

struct AppState;

class CompareFeature : public Feature {
 public:
  // `lessons` and `model`: the lessons' and the Model view's state, which
  // outlive this feature.
  CompareFeature(const LessonState& lessons, const ModelUi& model) : lessons_(lessons), model_(model) {}
  std::string_view name() const override { return "compare"; }
  void update(FeatureFrame& frame) override;
  void dump(nlohmann::json& out) const override;  // "compare" (with what a lesson question hides)

  // What the menus, the compare view and the command line edit (compare_actions.hpp).
  CompareState& state() { return state_; }
  const CompareState& state() const { return state_; }
  bool open() const { return state_.open; }

  // The lesson step, the reload and the other main views, taken into the
  // state (update() does this first; the tests call it on a bare AppState).
  void follow(AppState& s);

  const CompareTraces& traces() const { return traces_; }
  const std::optional<CompareGrids>& grids() const { return grids_; }
  const std::string& error() const { return error_; }

 private:
  const LessonState& lessons_;
  const ModelUi& model_;
  CompareState state_;
  CompareTraces traces_;
  std::optional<CompareGrids> grids_;
  std::string error_, key_;
  LessonStepWatch step_;  // the lesson step last followed
  bool model_was_open_ = false;
  std::vector<attn::StageKind> hidden_;  // the stages an open lesson question hides, as of the last update
};

}  // namespace model
