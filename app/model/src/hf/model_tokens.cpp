// The Model view's text -> ids step (model_tokens.hpp).
#include "model/hf/model_tokens.hpp"

#include <cctype>
#include <stdexcept>

namespace model {

std::shared_ptr<const ModelTokens> ModelTokens::load(const std::filesystem::path&) {
  return std::make_shared<const ModelTokens>();
}

std::vector<int> ModelTokens::encode(const std::string& text) const {
  std::vector<int> ids;
  long long value = -1;
  for (const char ch : text + ",") {
    const unsigned char c = static_cast<unsigned char>(ch);
    if (std::isdigit(c)) {
      value = (value < 0 ? 0 : value) * 10 + (c - '0');
      if (value > 100000000) throw std::runtime_error("a token id is too large");
    } else if (c == ',' || std::isspace(c)) {
      if (value >= 0) ids.push_back(static_cast<int>(value));
      value = -1;
    } else {
      throw std::runtime_error("This build has no tokenizer yet: type token ids, e.g. 15496, 11, 995");
    }
  }
  if (ids.empty()) throw std::runtime_error("No tokens: type some token ids, e.g. 15496, 11, 995");
  return ids;
}

std::string ModelTokens::text(int id) const { return "#" + std::to_string(id); }

}  // namespace model
