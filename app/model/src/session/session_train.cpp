// The Train view's side of the session's frame: TrainUi's requests carried
// out on the training session, the worker's progress taken in, a model file
// saved or opened, a trained layer opened in the pipeline.
#include <algorithm>
#include <utility>

#include "attn/io/model_file.hpp"
#include "model/compare/compare_feature.hpp"
#include "model/document/app_actions.hpp"
#include "model/lessons/lesson_actions.hpp"
#include "model/session/session.hpp"
#include "model/train/train_commands.hpp"
#include "model/train/train_feature.hpp"

namespace model {

void Session::update_train() {
  TrainFeature& view = features_.get<TrainFeature>();
  TrainUi& ui = view.ui;
  // Lessons (lesson_actions.hpp). A click on a head answers a "head"
  // question, judged on the snapshot the student saw (taken before this
  // frame's poll); "Show me" reads its scores. A lesson that opens the view
  // before any run shows the untrained model, so the grids are there to watch.
  LessonState& lessons = lesson_state();
  view.follow(lessons, state_.document);  // a lesson step with a train field opens the view
  if (ui.open && lessons.lesson) {
    const TrainGrids& seen = train_grids_.get(train_, ui.shown, ui.example);
    lessons.shown_scores = seen.heads;
    if (ui.picked_head && lesson_head_question_open(lessons)) {
      actions::answer_lesson_head(lessons, seen.heads, ui.picked_head->first, ui.picked_head->second);
      ui.picked_head.reset();
    }
    if (!train_.has_run() && ui.command == TrainUi::Command::None) ui.command = TrainUi::Command::Reset;
  }
  if (ui.command != TrainUi::Command::None) {
    const std::string error = apply_train_command(train_, ui);
    ui.message = error.empty() ? "" : "Cannot train: " + error;
  }
  train_.poll();
  if (ui.scrub != 0) {
    const int n = static_cast<int>(train_.snapshots().size());
    const int from = shown_snapshot(train_, ui.shown);
    const int to = std::clamp(from + ui.scrub, 0, std::max(0, n - 1));
    ui.shown = to == n - 1 && train_.running() ? -1 : to;
    ui.scrub = 0;
  }
  if (ui.save_request) {
    ui.save_request = false;
    if (train_.snapshots().empty()) {
      ui.message = "Nothing to save yet: press Train first.";
    } else {
      try {
        attn::io::ModelFile file;
        file.config = train_.config();
        file.model = *train_.snapshots().back().model;
        file.steps = train_.snapshots().back().step;
        attn::io::save_model(ui.model_path, file);
        ui.message = "Saved the model after " + std::to_string(file.steps) + " steps to " + ui.model_path + ".";
      } catch (const std::exception& e) {
        ui.message = std::string("Could not save the model: ") + e.what();
      }
    }
  }
  if (ui.open_request) {
    ui.open_request = false;
    try {
      attn::io::ModelFile file = attn::io::load_model(ui.model_path);
      const std::string error = train_.resume(file.config, std::move(file.model), file.steps, file.steps + ui.max_steps);
      if (error.empty()) {
        ui.settings = train_.config();
        ui.shown = -1;
        ui.message = "Opened " + ui.model_path + " (trained " + std::to_string(file.steps) + " steps).";
      } else {
        ui.message = "Could not open the model: " + error;
      }
    } catch (const std::exception& e) {
      ui.message = std::string("Could not open the model: ") + e.what();
    }
  }
  if (ui.open_in_pipeline) {
    const TrainUi::OpenRequest r = *std::exchange(ui.open_in_pipeline, std::nullopt);
    const int index = shown_snapshot(train_, ui.shown);
    if (index >= 0) {
      PendingAction a;
      a.kind = PendingAction::Kind::ShowScene;
      a.scene = std::make_shared<const attn::io::ScenarioFile>(trained_layer_scene(train_, ui.shown, ui.example, r.layer));
      a.label = "trained layer " + std::to_string(r.layer) + ", step " +
                std::to_string(train_.snapshots()[static_cast<size_t>(index)].step);
      a.head = r.head;
      CompareState& compare = features_.get<CompareFeature>().state();
      a.then = [&compare, &ui](AppState&) {  // the pipeline view replaces the Train and compare views
        ui.open = false;
        compare.open = false;
      };
      actions::request(state_, std::move(a));
    }
  }
}

}  // namespace model
