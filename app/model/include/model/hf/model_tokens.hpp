// Text to token ids and ids to readable pieces for the Model view: the one
// place the view's text meets the model's tokenizer. Until attn_hf's
// Tokenizer lands (branch hf-tokenizer), the text must be token ids
// ("15496, 11, 995") and a token reads as its id ("#15496").
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace model {

class ModelTokens {
 public:
  // The tokenizer of the model folder `dir`; never throws (no tokenizer:
  // ids only, and kind() says so).
  static std::shared_ptr<const ModelTokens> load(const std::filesystem::path& dir);
  // Throws std::runtime_error with a message for the view.
  std::vector<int> encode(const std::string& text) const;
  std::string text(int id) const;
  std::string kind() const { return "token ids (no tokenizer yet)"; }
};

}  // namespace model
