// Opening a model folder and reading the ids to run it on (model_input.hpp).
#include "model/model_input.hpp"

#include <optional>
#include <sstream>

#include "attn/hf/model_error.hpp"
#include "attn/hf/tokenizer/tokenizer.hpp"
#include "cli_error.hpp"

namespace attn::cli {

namespace {

std::vector<int> parse_ids(const std::string& text) {
  std::vector<int> ids;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    try {
      std::size_t used = 0;
      const long long v = std::stoll(item, &used);
      if (used != item.size() || v < 0 || v > 100000000) throw std::invalid_argument(item);
      ids.push_back(static_cast<int>(v));
    } catch (const std::exception&) {
      throw CliError("--ids: \"" + item + "\" is not a token id (give ids as 15496,11,995)");
    }
  }
  return ids;
}

}  // namespace

OpenedModel open_model(const ModelInput& in, bool need_tokens) {
  OpenedModel m;
  try {
    m.checkpoint = hf::Checkpoint::open(in.dir);
  } catch (const hf::ModelError& e) {
    throw CliError(e.what());
  }
  if (!need_tokens) return m;
  if (!in.text.empty() && !in.ids.empty()) throw CliError("give the tokens as --text or --ids, not both");
  if (in.ids.empty() && in.text.empty())
    throw CliError("give the text to run the model on: --text \"...\" (or token ids: --ids 15496,11,995)");
  // The tokenizer labels the tokens either way; with --ids and no tokenizer
  // they are labelled by id.
  std::optional<hf::Tokenizer> tokenizer;
  try {
    tokenizer = hf::Tokenizer::load_folder(in.dir);
  } catch (const std::exception& e) {
    if (!in.text.empty()) throw CliError(e.what());
  }
  m.ids = in.ids.empty() ? tokenizer->encode(in.text) : parse_ids(in.ids);
  if (m.ids.empty()) throw CliError(in.ids.empty() ? "--text: the tokenizer made no tokens of it" : "--ids: no token ids given");
  // Checked here, so every subcommand refuses an id the model has no embedding for.
  const int vocab = m.checkpoint->config().vocab;
  for (std::size_t i = 0; i < m.ids.size(); ++i)
    if (m.ids[i] >= vocab)
      throw CliError(std::string(in.ids.empty() ? "--text" : "--ids") + ": token " + std::to_string(i) + " has id " +
                     std::to_string(m.ids[i]) + ", outside the vocabulary of " + std::to_string(vocab) + " (ids 0 to " +
                     std::to_string(vocab - 1) + ")");
  if (tokenizer) m.tokenizer = std::make_shared<const hf::Tokenizer>(std::move(*tokenizer));
  for (int id : m.ids) {
    m.tokens.push_back(m.token_text(id));
    m.raw_pieces.push_back(m.tokenizer ? m.tokenizer->token_piece(id) : "#" + std::to_string(id));
  }
  return m;
}

std::string OpenedModel::token_text(int id) const {
  return tokenizer ? tokenizer->token_text(id) : "#" + std::to_string(id);
}

}  // namespace attn::cli
