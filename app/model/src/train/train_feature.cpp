// TrainFeature (train_feature.hpp): the Train view follows the lesson step,
// and its requests are carried out on the run: a command, the worker's
// progress taken in, a model file saved or opened, a trained layer opened
// in the pipeline.
#include "model/train/train_feature.hpp"

#include <algorithm>
#include <utility>

#include "attn/io/model_file.hpp"
#include "model/document/app_actions.hpp"
#include "model/lessons/lesson_actions.hpp"
#include "model/train/train_commands.hpp"

namespace model {

void TrainFeature::before_trace(FeatureFrame& frame) {
  // Lessons (lesson_actions.hpp). A click on a head answers a "head"
  // question, judged on the snapshot the student saw (taken before this
  // frame's poll); "Show me" reads its scores. A lesson that opens the view
  // before any run shows the untrained model, so the grids are there to watch.
  follow(lessons_, frame.state.document);  // a lesson step with a train field opens the view
  if (ui.open && lessons_.lesson) {
    const TrainGrids& seen = grids();
    lessons_.shown_scores = seen.heads;
    if (ui.picked_head && lesson_head_question_open(lessons_)) {
      actions::answer_lesson_head(lessons_, seen.heads, ui.picked_head->first, ui.picked_head->second);
      ui.picked_head.reset();
    }
    if (!run_->has_run() && ui.command == TrainUi::Command::None) ui.command = TrainUi::Command::Reset;
  }
  if (ui.command != TrainUi::Command::None) {
    const std::string error = apply_train_command(*run_, ui);
    ui.message = error.empty() ? "" : "Cannot train: " + error;
  }
  run_->poll();
  if (ui.scrub != 0) {
    const int n = static_cast<int>(run_->snapshots().size());
    const int from = shown_snapshot(*run_, ui.shown);
    const int to = std::clamp(from + ui.scrub, 0, std::max(0, n - 1));
    ui.shown = to == n - 1 && run_->running() ? -1 : to;
    ui.scrub = 0;
  }
  if (std::exchange(ui.save_request, false)) save_model();
  if (std::exchange(ui.open_request, false)) open_model();
  if (ui.open_in_pipeline) open_in_pipeline(frame.state);
}

void TrainFeature::update(FeatureFrame& frame) {
  (void)frame;
  if (ui.open) grids();
}

void TrainFeature::save_model() {
  if (run_->snapshots().empty()) {
    ui.message = "Nothing to save yet: press Train first.";
    return;
  }
  try {
    attn::io::ModelFile file;
    file.config = run_->config();
    file.model = *run_->snapshots().back().model;
    file.steps = run_->snapshots().back().step;
    attn::io::save_model(ui.model_path, file);
    ui.message = "Saved the model after " + std::to_string(file.steps) + " steps to " + ui.model_path + ".";
  } catch (const std::exception& e) {
    ui.message = std::string("Could not save the model: ") + e.what();
  }
}

void TrainFeature::open_model() {
  try {
    attn::io::ModelFile file = attn::io::load_model(ui.model_path);
    const std::string error = run_->resume(file.config, std::move(file.model), file.steps, file.steps + ui.max_steps);
    if (error.empty()) {
      ui.settings = run_->config();
      ui.shown = -1;
      ui.message = "Opened " + ui.model_path + " (trained " + std::to_string(file.steps) + " steps).";
    } else {
      ui.message = "Could not open the model: " + error;
    }
  } catch (const std::exception& e) {
    ui.message = std::string("Could not open the model: ") + e.what();
  }
}

void TrainFeature::open_in_pipeline(AppState& state) {
  const TrainUi::OpenRequest r = *std::exchange(ui.open_in_pipeline, std::nullopt);
  const int index = shown_snapshot(*run_, ui.shown);
  if (index < 0) return;
  PendingAction a;
  a.kind = PendingAction::Kind::ShowScene;
  a.scene = std::make_shared<const attn::io::ScenarioFile>(trained_layer_scene(*run_, ui.shown, ui.example, r.layer));
  a.label = "trained layer " + std::to_string(r.layer) + ", step " +
            std::to_string(run_->snapshots()[static_cast<size_t>(index)].step);
  a.head = r.head;
  a.then = [this](AppState&) {  // the pipeline view replaces the Train and compare views
    ui.open = false;
    compare_.open = false;
  };
  actions::request(state, std::move(a));
}


void TrainFeature::set_wake(std::function<void()> wake) {
  wake_ = std::move(wake);
  run_->set_on_progress(wake_);
}

TrainFeature::SetAside TrainFeature::set_aside() {
  SetAside aside{ui, std::exchange(run_, std::make_unique<TrainSession>())};
  run_->set_on_progress(wake_);
  ui = TrainUi{};
  grids_ = TrainGridsCache{};
  return aside;
}

void TrainFeature::put_back(SetAside aside, const LessonState& lessons, std::uint64_t document) {
  run_ = std::move(aside.run);
  ui = std::move(aside.ui);
  grids_ = TrainGridsCache{};
  step_.moved(lessons, document);  // the step returned to counts as followed
}

void TrainFeature::follow(const LessonState& lessons, std::uint64_t document) {
  const std::optional<LessonSession>& lesson = lessons.lesson;
  if (!step_.moved(lessons, document) || !lesson) return;  // leaving a lesson leaves the view as it is
  const attn::io::LessonStep& st = lesson->current();
  ui.open = st.train.has_value();
  if (!st.train) return;
  ui.slide_why = std::find(st.view.panels.begin(), st.view.panels.end(), std::make_pair(std::string("train_why"), true)) !=
                 st.view.panels.end();
  if (!same_run(ui.settings, *st.train)) ui.command = TrainUi::Command::Reset;
  ui.settings = *st.train;
  ui.max_steps = st.train_steps;
  ui.picked_head.reset();
}

}  // namespace model
