// The Train view as a feature: what the user chose in it (TrainUi), the
// training run (TrainSession) and the grids of the snapshot shown, kept
// beside the document rather than in it. It follows the lesson step: a step
// with a train field opens the view with the step's settings (a different
// model starts afresh), any other step of the lesson closes it. Each frame,
// before the trace, it carries the view's requests out on the run (train,
// pause, save, open a model file, open a trained layer in the pipeline).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>

#include "model/compare/compare.hpp"
#include "model/feature/feature.hpp"
#include "model/lessons/lesson_state.hpp"
#include "model/lessons/lesson_step_watch.hpp"
#include "model/train/train_session.hpp"
#include "model/train/train_ui.hpp"
#include "model/train/train_view_model.hpp"

namespace model {

class TrainFeature : public Feature {
 public:
  // `lessons`: a click on a head answers the lesson's head question;
  // `compare`: opening a trained layer closes the compare view.
  TrainFeature(LessonState& lessons, CompareState& compare) : lessons_(lessons), compare_(compare) {}
  std::string_view name() const override { return "train"; }
  void before_trace(FeatureFrame& frame) override;
  // The shown snapshot's grids made now, not while drawing.
  void update(FeatureFrame& frame) override;
  bool working() const override { return run_->running(); }
  // The lesson step's train field into the view, once per step entered
  // (`document`: AppState::document, new with each step's scene).
  void follow(const LessonState& lessons, std::uint64_t document);
  // The Train view's grids for the snapshot and example it shows.
  const TrainGrids& grids() { return grids_.get(*run_, ui.shown, ui.example); }
  TrainSession& run() { return *run_; }
  const TrainSession& run() const { return *run_; }
  // Called from a run's worker when it has published something.
  void set_wake(std::function<void()> wake);

  // The slides export trains each lesson step's run on a session of its
  // own: the user's run and choices wait aside, untouched (a run goes on
  // training), and come back as they were. The step the export returns to
  // is not followed again, so its settings do not reset the user's run.
  struct SetAside {
    TrainUi ui;
    std::unique_ptr<TrainSession> run;
  };
  SetAside set_aside();
  void put_back(SetAside aside, const LessonState& lessons, std::uint64_t document);

  TrainUi ui;

 private:
  void save_model();
  void open_model();
  void open_in_pipeline(AppState& state);

  std::unique_ptr<TrainSession> run_ = std::make_unique<TrainSession>();
  std::function<void()> wake_;
  LessonState& lessons_;
  CompareState& compare_;
  LessonStepWatch step_;  // the lesson step last followed
  TrainGridsCache grids_;
};

}  // namespace model
