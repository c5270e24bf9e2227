// The trained-model file format ("attnviz-model", version 1): the task, the
// model's shape, the training settings and every weight, so reopening it
// gives identical predictions. Errors name the field, like scenario files.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "attn/io/scenario_file.hpp"  // FormatError
#include "attn/train/trainer.hpp"

namespace attn::io {

struct ModelFile {
  train::TrainConfig config;  // task, model shape, batch, learning rate, seed
  train::Model model;
  int steps = 0;  // training steps the weights have had
};

nlohmann::json model_to_json(const ModelFile& file);
// Parses and validates shapes against the config; throws FormatError, e.g.
// "weights.layers[1].w_o: expected 64 rows, got 32".
ModelFile parse_model(const std::string& text);
ModelFile load_model(const std::string& path);
// Temporary file then rename, like save_scenario.
void save_model(const std::string& path, const ModelFile& file);

}  // namespace attn::io
