#pragma once
// The files of a model folder that `attn model` reads, so its -o can be
// refused when it names one of them: `attn model attention DIR -o
// DIR/config.json` used to overwrite the model's own config and exit 0.
#include <string>
#include <vector>

#include "attn/hf/checkpoint/checkpoint.hpp"

namespace attn::cli {

// config.json, the shard index and every weights file the checkpoint opened,
// and whichever tokenizer files the folder holds (tokenizer.json,
// tokenizer_config.json, vocab.json, merges.txt, vocab.txt).
std::vector<std::string> model_files(const hf::Checkpoint& checkpoint);

}  // namespace attn::cli
