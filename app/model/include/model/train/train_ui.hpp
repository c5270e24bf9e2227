// What the user chose in the Train view (TrainFeature): the settings of
// the next run, which snapshot and example are shown, and the requests the
// app carries out on the training session (start, pause, reset, open a
// snapshot in the pipeline view, save or open a model file).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "attn/train/trainer.hpp"

namespace model {

struct TrainUi {
  bool open = false;                     // the Train view takes the canvas's place
  attn::train::TrainConfig settings = default_train_settings();
  int max_steps = 1500;                  // a run pauses by itself here
  int example = 0;                       // which held-out sequence the grids show
  int shown = -1;                        // snapshot shown; -1: always the newest
  enum class Command { None, Start, Pause, Reset, Toggle };
  int scrub = 0;                         // snapshots to move the shown one by (arrow keys)
  Command command = Command::None;
  // Open (snapshot shown, layer, head) in the pipeline view.
  struct OpenRequest {
    int layer = 0, head = 0;
  };
  std::optional<OpenRequest> open_in_pipeline;
  std::string model_path = "trained-model.json";  // the Save / Open field
  bool save_request = false, open_request = false;
  std::string message;                   // the last problem or result, shown in the view
  // On a slide, why the strongest head attends, in the curves' place: a
  // lesson step's "train_why" panel.
  bool slide_why = false;
  // A lesson's "click the induction head" question: the head clicked last.
  std::optional<std::pair<int, int>> picked_head;

  // The defaults are core/train's (attn::train::default_train_config).
  static attn::train::TrainConfig default_train_settings() { return attn::train::default_train_config(); }
};

}  // namespace model

namespace model {

// Whether a run with `a` trains the same model on the same data as one with
// `b` (Train then continues it; other settings start a new run).
inline bool same_run(const attn::train::TrainConfig& a, const attn::train::TrainConfig& b) {
  return a.task.kind == b.task.kind && a.task.vocab == b.task.vocab && a.task.length == b.task.length &&
         a.task.random_offset == b.task.random_offset && a.model.d_model == b.model.d_model &&
         a.model.n_heads == b.model.n_heads && a.model.n_layers == b.model.n_layers &&
         a.model.learned_positions == b.model.learned_positions && a.model.mlp == b.model.mlp &&
         a.batch == b.batch && a.learning_rate == b.learning_rate && a.seed == b.seed;
}

}  // namespace model
