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
#include "train/train_options.hpp"

namespace attn::cli {

namespace {

std::string valid_tokens(const train::TaskSpec& task) {
  std::string out;
  for (int t = 0; t < train::model_vocab(task); ++t) out += (t ? " " : "") + train::token_name(task, t);
  return out;
}

std::vector<int> input_tokens(const io::ModelFile& f, const std::string& text) {
  if (text.empty()) throw CliError("--input: give the tokens to run, e.g. --input \"A B C A B\"");
  std::vector<int> tokens;
  try {
    tokens = train::parse_tokens(f.config.task, text);
  } catch (const std::invalid_argument& e) {
    throw CliError(std::string("--input: ") + e.what() + " (valid tokens: " + valid_tokens(f.config.task) + ")");
  }
  const int max = f.model.config.seq_len;
  if (tokens.empty()) throw CliError("--input: no tokens given");
  if (static_cast<int>(tokens.size()) > max) {
    throw CliError("--input: " + std::to_string(tokens.size()) + " tokens, but the model has positions for " +
                   std::to_string(max));
  }
  return tokens;
}

// The model runs on sequences of exactly seq_len tokens. A shorter input is
// padded with the filler marker and the padding cut off again afterwards:
// attention is causal, so the first k rows never see what follows them.
Scenario layer_on_input(const io::ModelFile& f, const std::vector<int>& tokens, int layer) {
  std::vector<int> padded = tokens;
  padded.resize(static_cast<std::size_t>(f.model.config.seq_len), f.config.task.vocab);
  Scenario s = train::layer_scenario(f.model, f.config.task, padded, layer);
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
