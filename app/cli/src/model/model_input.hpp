#pragma once
// What every `attn model` subcommand starts from: the folder, opened, and the
// token ids to run it on (typed as --ids, or --text through the model's own
// tokenizer), with a label per token.
#include <memory>
#include <string>
#include <vector>

#include "attn/hf/checkpoint/checkpoint.hpp"
#include "attn/hf/tokenizer/tokenizer.hpp"

namespace attn::cli {

struct ModelInput {
  std::string dir;
  std::string text;
  std::string ids;  // "15496,11,995"
};

struct OpenedModel {
  std::shared_ptr<const hf::Checkpoint> checkpoint;
  std::vector<int> ids;
  std::vector<std::string> tokens;      // one label per id
  std::vector<std::string> raw_pieces;  // each id's string as the vocabulary stores it ("Ġan")
  std::shared_ptr<const hf::Tokenizer> tokenizer;  // null with --ids and no tokenizer in the folder
  // Any id's readable text (a predicted one too), "#id" without a tokenizer.
  std::string token_text(int id) const;
};

// Throws CliError with the model's own message (a damaged file, an unknown
// family, an id outside the vocabulary).
OpenedModel open_model(const ModelInput& in, bool need_tokens);

}  // namespace attn::cli
