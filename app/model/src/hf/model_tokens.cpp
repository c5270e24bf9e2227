// The Model view's text -> ids step (model_tokens.hpp).
#include "model/hf/model_tokens.hpp"

#include <cctype>
#include <stdexcept>

namespace model {

namespace {

// "15496, 11,995": what a folder without a tokenizer reads.
std::vector<int> parse_ids(const std::string& text) {
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
      throw std::runtime_error("This folder has no tokenizer: type token ids, e.g. 15496, 11, 995");
    }
  }
  return ids;
}

}  // namespace

std::shared_ptr<const ModelTokens> ModelTokens::load(const std::filesystem::path& dir) {
  auto t = std::make_shared<ModelTokens>();
  try {
    t->tokenizer_ = attn::hf::Tokenizer::load_folder(dir);
  } catch (const std::exception& e) {
    t->problem_ = e.what();
  }
  return t;
}

std::vector<int> ModelTokens::encode(const std::string& text) const {
  const std::vector<int> ids = tokenizer_ ? tokenizer_->encode(text) : parse_ids(text);
  if (ids.empty()) throw std::runtime_error(tokenizer_ ? "No tokens: type a text." : "No tokens: type some token ids, e.g. 15496, 11, 995");
  return ids;
}

std::string ModelTokens::text(int id) const {
  if (!tokenizer_) return "#" + std::to_string(id);
  std::string piece = tokenizer_->token_text(id);
  if (piece.empty()) return "#" + std::to_string(id);
  // A newline or tab would break the lists and columns it is shown in.
  std::string shown;
  for (char c : piece) shown += c == '\n' ? std::string("\\n") : c == '\t' ? std::string("\\t") : std::string(1, c);
  return shown;
}

std::string ModelTokens::kind() const { return tokenizer_ ? tokenizer_->kind() : "token ids (no tokenizer in the folder)"; }

}  // namespace model
