// The Train view's side of the frame: TrainUi's requests carried out on the
// training session, the worker's progress taken in, and the grids derived,
// all before any drawing (see app_frame.cpp).
#include <algorithm>
#include <cstdio>
#include <utility>

#include "shell/app.hpp"
#include "attn/io/model_file.hpp"
#include "model_names.hpp"
#include "model/document/app_actions.hpp"
#include "model/lessons/lesson_actions.hpp"

namespace viz {
namespace {

std::string apply_command(TrainSession& session, TrainUi& ui) {
  TrainUi::Command command = std::exchange(ui.command, TrainUi::Command::None);
  if (command == TrainUi::Command::Toggle) command = session.running() ? TrainUi::Command::Pause : TrainUi::Command::Start;
  switch (command) {
    case TrainUi::Command::None:
    case TrainUi::Command::Toggle: return "";
    case TrainUi::Command::Pause: session.pause(); return "";
    case TrainUi::Command::Reset:
      ui.shown = -1;
      return session.reset(ui.settings, ui.max_steps);
    case TrainUi::Command::Start: {
      if (!session.has_run() || !same_run(session.config(), ui.settings)) {
        const std::string error = session.reset(ui.settings, ui.max_steps);
        if (!error.empty()) return error;
      }
      // A run that reached its limit goes on for as many steps again.
      if (session.steps() >= session.max_steps()) session.set_max_steps(session.steps() + ui.max_steps);
      ui.shown = -1;  // follow the newest snapshot while training
      session.start();
      return "";
    }
  }
  return "";
}

}  // namespace

void App::apply_train_options() {
  if (train_options_applied_) return;
  train_options_applied_ = true;
  TrainUi& ui = state_.train;
  if (!options_.train_model.empty()) {
    ui.open = true;
    ui.model_path = options_.train_model;
    ui.open_request = true;
    return;
  }
  if (options_.train_task.empty()) return;
  ui.open = true;
  attn::train::TrainConfig& c = ui.settings;
  c.task.kind = attn::train::task_from_name(options_.train_task);
  if (options_.train_layers > 0) c.model.n_layers = options_.train_layers;
  if (options_.train_heads > 0) c.model.n_heads = options_.train_heads;
  if (options_.train_length > 0) c.task.length = options_.train_length;
  if (options_.train_seed) c.seed = *options_.train_seed;
  if (!options_.train_positions.empty()) c.model.learned_positions = options_.train_positions == "learned";
  ui.command = TrainUi::Command::Reset;
  if (options_.train_steps > 0) {
    ui.max_steps = options_.train_steps;
    ui.message = apply_command(train_, ui);
    ui.command = TrainUi::Command::Start;
  }
}

void App::update_train() {
  apply_train_options();
  TrainUi& ui = state_.train;
  // Lessons (lesson_actions.hpp). A click on a head answers a "head"
  // question, judged on the snapshot the student saw (taken before this
  // frame's poll); "Show me" reads its scores. A lesson that opens the view
  // before any run shows the untrained model, so the grids are there to watch.
  if (ui.open && state_.lesson) {
    const TrainGrids& seen = train_grids_.get(train_, ui.shown, ui.example);
    ui.shown_scores = seen.heads;
    if (ui.picked_head && lesson_head_question_open(state_)) {
      actions::answer_lesson_head(state_, seen.heads, ui.picked_head->first, ui.picked_head->second);
      ui.picked_head.reset();
    }
    if (!train_.has_run() && ui.command == TrainUi::Command::None) ui.command = TrainUi::Command::Reset;
  }
  if (ui.command != TrainUi::Command::None) {
    const std::string error = apply_command(train_, ui);
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
      a.label = "trained layer " + std::to_string(r.layer + 1) + ", step " +
                std::to_string(train_.snapshots()[static_cast<size_t>(index)].step);
      a.head = r.head;
      actions::request(state_, std::move(a));
    }
  }
}

}  // namespace viz

namespace viz {

nlohmann::json App::train_dump() {
  const TrainUi& ui = state_.train;
  nlohmann::json j = {{"open", ui.open}, {"running", train_.running()}, {"steps", train_.steps()},
                      {"snapshots", train_.snapshots().size()}, {"task", attn::train::task_name(train_.config().task.kind)},
                      {"message", ui.message}, {"problem", train_.problem()}};
  if (!train_.snapshots().empty()) {
    const TrainGrids& g = train_grids_.get(train_, ui.shown, ui.example);
    const TrainSnapshot& shown = train_.snapshots()[static_cast<size_t>(g.snapshot)];
    j["shown_step"] = g.step;
    j["following"] = ui.shown < 0;
    j["accuracy"] = shown.held_out.accuracy;
    j["newest_accuracy"] = train_.snapshots().back().held_out.accuracy;
    j["best_head"] = {{"layer", g.best.layer}, {"head", g.best.head}, {"induction", g.best.induction}};
    j["tokens"] = g.tokens;
  }
  if (ui.picked_head) j["picked"] = {ui.picked_head->first, ui.picked_head->second};
  return j;
}

}  // namespace viz
