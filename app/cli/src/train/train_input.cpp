// Reads and pads a saved model's input tokens (see train_input.hpp).
#include "train/train_input.hpp"

#include <stdexcept>

#include "cli_error.hpp"

namespace attn::cli {

namespace {

std::string valid_tokens(const train::TaskSpec& task) {
  std::string out;
  for (int t = 0; t < train::model_vocab(task); ++t) out += (t ? " " : "") + train::token_name(task, t);
  return out;
}

}  // namespace

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

std::vector<int> padded_tokens(const io::ModelFile& f, const std::vector<int>& tokens) {
  std::vector<int> padded = tokens;
  padded.resize(static_cast<std::size_t>(f.model.config.seq_len), f.config.task.vocab);
  return padded;
}

}  // namespace attn::cli
