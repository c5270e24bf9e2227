// What `attn train` was asked to do: train a model on a task, or turn one
// layer of a saved model into a scenario file. Two modes of one command so
// the model file's whole life (train, save, inspect) sits under one name.
#pragma once

#include <string>

namespace attn::cli {

struct TrainOptions {
  // Training.
  std::string task;
  int vocab = 16;
  int length = 0;  // 0: 12, or for key-value at most vocab / 2 pairs (keys are distinct)
  bool random_offset = false;
  int layers = 2;
  int heads = 4;
  int d_model = 64;
  std::string positions = "learned";
  bool mlp = false;
  int steps = 1000;
  int batch = 64;
  double lr = 3e-3;
  unsigned long long seed = 1;
  double until = 0;  // stop once held-out accuracy reaches this (0: run all steps)
  int eval_every = 0;  // 0: about 20 progress lines over the run
  int threads = 0;
  std::string out;
  // Scenario export.
  std::string model;
  std::string input;
  int layer = 0;  // counted from 0, as everywhere users see layers
};

// `attn train --task ...`: trains, prints progress and the head table, saves to -o if given.
int run_training(const TrainOptions& opts);
// `attn train --scenario MODEL --input "..." -o SCENE`: writes one layer as a scenario.
int run_layer_export(const TrainOptions& opts);

}  // namespace attn::cli
