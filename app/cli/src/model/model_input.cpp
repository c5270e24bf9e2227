#include "model/model_input.hpp"

#include <sstream>

#include "attn/hf/model_error.hpp"
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
  if (in.ids.empty()) throw CliError("give the tokens to run the model on: --ids 15496,11,995");
  m.ids = parse_ids(in.ids);
  if (m.ids.empty()) throw CliError("--ids: no token ids given");
  for (int id : m.ids) m.tokens.push_back("#" + std::to_string(id));
  return m;
}

}  // namespace attn::cli
