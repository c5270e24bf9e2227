// `attn train --scenario MODEL --input "A B C" -o SCENE.json`: one layer of a
// saved model on one input, written as an ordinary scenario file so every
// other command (check, explain, trace) and the app can open it.
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "attn/io/model_file.hpp"
#include "attn/compute/overflow_bound.hpp"
#include "attn/compute/trace.hpp"
#include "cli_error.hpp"
#include "output_guard.hpp"
#include "train/train_input.hpp"
#include "train/train_options.hpp"

namespace attn::cli {

namespace {

// The model runs on sequences of exactly seq_len tokens: the padding is cut
// off again afterwards.
Scenario layer_on_input(const io::ModelFile& f, const std::vector<int>& tokens, int layer) {
  Scenario s = train::layer_scenario(f.model, f.config.task, padded_tokens(f, tokens), layer);
  const Eigen::Index k = static_cast<Eigen::Index>(tokens.size());
  s.x = Mat(s.x.topRows(k));
  s.tokens.resize(tokens.size());
  return s;
}

}  // namespace

int run_layer_export(const TrainOptions& o) {
  if (!o.task.empty()) throw CliError("--task: not used with --scenario (the model file names its task)");
  if (o.out.empty()) throw CliError("-o: where should the scenario go? (e.g. -o scene.json)");
  refuse_output_over_input("-o", o.out, {o.model});
  const io::ModelFile f = io::load_model(o.model);
  const int layers = f.model.config.n_layers;
  // Layers count from 0, as in the Train view, `attn model` and PyTorch.
  if (o.layer < 0 || o.layer >= layers) {
    throw CliError("--layer: " + std::to_string(o.layer) + " is out of range (the model has " + std::to_string(layers) +
                   (layers == 1 ? " layer, 0)" : " layers, 0 to " + std::to_string(layers - 1) + ")"));
  }
  const std::vector<int> tokens = input_tokens(f, o.input);
  io::ScenarioFile scene;
  scene.scenario = layer_on_input(f, tokens, o.layer);
  // Loading refused weights that overflow on its probe inputs; this input
  // is checked too, so no scene is written that `attn check` would refuse.
  if (!proved_finite(scene.scenario)) {
    try {
      (void)compute_trace(scene.scenario);
    } catch (const ComputeError& e) {
      throw CliError(o.model + ": the forward pass overflows on the input \"" + o.input + "\", layer " +
                     std::to_string(o.layer) + ": " + e.what());
    }
  }
  const std::string task = train::task_name(f.config.task.kind);
  scene.title = task + " model, layer " + std::to_string(o.layer) + ", step " + std::to_string(f.steps);
  scene.description = "Layer " + std::to_string(o.layer) + " of a model trained on the " + task + " task for " +
                      std::to_string(f.steps) + " steps (" + train::task_rule(f.config.task.kind) +
                      "). Input: " + o.input + ". The rows of x are the layer's residual stream.";
  try {
    io::save_scenario(o.out, scene);
  } catch (const io::FormatError& e) {
    throw CliError(e.what());
  }
  std::printf("wrote %s: layer %d of the %s model (%d steps) on \"%s\"\n", o.out.c_str(), o.layer, task.c_str(), f.steps,
              o.input.c_str());
  return 0;
}

}  // namespace attn::cli
