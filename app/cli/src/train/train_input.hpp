// The tokens a person gives a saved model on the command line (--input "A B
// C"), checked against the model's task and length, and padded to the
// length the model runs on. Shared by the layer export and `explain --why`.
#pragma once

#include <string>
#include <vector>

#include "attn/io/model_file.hpp"

namespace attn::cli {

// Throws CliError naming --input and listing the valid tokens.
std::vector<int> input_tokens(const io::ModelFile& f, const std::string& text);

// `tokens` followed by the filler marker up to the model's seq_len. Attention
// is causal, so the first tokens.size() rows never see the padding.
std::vector<int> padded_tokens(const io::ModelFile& f, const std::vector<int>& tokens);

}  // namespace attn::cli
