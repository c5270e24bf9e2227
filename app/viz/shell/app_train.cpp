// The Train view from the command line (--train and its companions, once)
// and in --dump-state. The view's frame itself is the session's
// (model/session/session_train.cpp).
#include "shell/app.hpp"
#include "model_names.hpp"
#include "model/train/train_commands.hpp"

namespace viz {

void App::apply_train_options() {
  if (train_options_applied_) return;
  train_options_applied_ = true;
  TrainUi& ui = train_ui_;
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
    ui.message = apply_train_command(train_.run(), ui);
    ui.command = TrainUi::Command::Start;
  }
}

nlohmann::json App::train_dump() {
  const TrainUi& ui = train_ui_;
  nlohmann::json j = {{"open", ui.open}, {"running", train_.run().running()}, {"steps", train_.run().steps()},
                      {"snapshots", train_.run().snapshots().size()}, {"task", attn::train::task_name(train_.run().config().task.kind)},
                      {"message", ui.message}, {"problem", train_.run().problem()}};
  if (!train_.run().snapshots().empty()) {
    const TrainGrids& g = train_.grids();
    const TrainSnapshot& shown = train_.run().snapshots()[static_cast<size_t>(g.snapshot)];
    j["shown_step"] = g.step;
    j["following"] = ui.shown < 0;
    j["accuracy"] = shown.held_out.accuracy;
    j["newest_accuracy"] = train_.run().snapshots().back().held_out.accuracy;
    j["best_head"] = {{"layer", g.best.layer}, {"head", g.best.head}, {"induction", g.best.induction}};
    j["tokens"] = g.tokens;
    if (g.why) {
      const model::TrainWhy& w = *g.why;
      nlohmann::json by_key = nlohmann::json::object();
      const attn::Vec key = w.split.by_key_source();
      for (Eigen::Index s = 0; s < key.size(); ++s) by_key[w.split.key_sources[static_cast<std::size_t>(s)]] = key(s);
      const attn::ScoreCell& c = w.split.cell;
      j["why"] = {{"layer", c.layer}, {"head", c.head}, {"query", c.query}, {"key", c.key}, {"score", w.split.score},
                  {"by_key_source", by_key}, {"largest", model::train_why_largest(w)},
                  {"previous_token_head", w.previous_token_source >= 0
                                              ? w.split.key_sources[static_cast<std::size_t>(w.previous_token_source)]
                                              : ""}};
    }
  }
  if (ui.picked_head) j["picked"] = {ui.picked_head->first, ui.picked_head->second};
  return j;
}

}  // namespace viz
