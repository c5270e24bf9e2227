// Text to token ids and ids to readable pieces for the Model view: the one
// place the view's text meets the model's tokenizer (attn::hf::Tokenizer,
// from the folder's tokenizer.json or older vocab files). A folder with no
// tokenizer still runs: its text is token ids ("15496, 11, 995") and a token
// reads as its id ("#15496").
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "attn/hf/tokenizer/tokenizer.hpp"

namespace model {

class ModelTokens {
 public:
  // The tokenizer of the model folder `dir`; never throws (none, or one
  // that cannot be read: ids only, and problem() says why).
  static std::shared_ptr<const ModelTokens> load(const std::filesystem::path& dir);
  // Throws std::runtime_error with a message for the view.
  std::vector<int> encode(const std::string& text) const;
  std::string text(int id) const;
  std::string kind() const;
  const std::string& problem() const { return problem_; }
  bool has_tokenizer() const { return tokenizer_.has_value(); }

 private:
  std::optional<attn::hf::Tokenizer> tokenizer_;
  std::string problem_;
};

}  // namespace model
