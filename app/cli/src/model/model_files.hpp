#pragma once
// Every file of a model folder that `attn model` reads: config.json, the
// tokenizer's files, the shard index and every weights file. An output must
// be none of them, under any name (output_guard.hpp): `-o DIR/config.json`
// used to overwrite the model's own config and exit 0.
#include <string>
#include <vector>

#include "attn/hf/checkpoint.hpp"

namespace attn::cli {

std::vector<std::string> model_files(const hf::Checkpoint& ck);

}  // namespace attn::cli
