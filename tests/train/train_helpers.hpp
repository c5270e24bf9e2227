// Small shared builders for the training tests.
#pragma once

#include "attn/train/model.hpp"
#include "attn/train/task.hpp"
#include "attn/train/trainer.hpp"

namespace attn::train::testing {

inline TaskSpec task_of(TaskKind kind, int vocab, int length, bool random_offset = false) {
  TaskSpec t;
  t.kind = kind;
  t.vocab = vocab;
  t.length = length;
  t.random_offset = random_offset;
  return t;
}

inline ModelConfig config_for(const TaskSpec& task, int d_model, int n_heads, int n_layers, bool learned,
                              bool mlp, int d_mlp = 0) {
  ModelConfig c;
  c.vocab = model_vocab(task);
  c.seq_len = sequence_length(task);
  c.d_model = d_model;
  c.n_heads = n_heads;
  c.n_layers = n_layers;
  c.learned_positions = learned;
  c.mlp = mlp;
  c.d_mlp = d_mlp;
  return c;
}

inline std::vector<int> row_tokens(const Batch& b, int row) {
  std::vector<int> out(b.tokens.cols());
  for (int t = 0; t < static_cast<int>(out.size()); ++t) out[t] = b.tokens(row, t);
  return out;
}

}  // namespace attn::train::testing
