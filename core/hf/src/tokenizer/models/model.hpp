#pragma once
// tokenizer.json's "model": the vocabulary and the rule that turns one
// pre-tokenized piece into ids (BPE merges or WordPiece's longest match).
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "tokenizer/json_fields.hpp"

namespace attn::hf::tokenizer_detail {

using Vocab = std::unordered_map<std::string, int>;

// Refused beyond this many entries: a tokenizer file is not a database.
constexpr std::size_t kMaxVocabEntries = 4'000'000;

class Model {
 public:
  virtual ~Model() = default;
  // Appends the ids of one piece.
  virtual void tokenize(std::string_view piece, std::vector<int>& out) const = 0;
  virtual const Vocab& vocab() const = 0;
  virtual std::string kind() const = 0;
};

struct BpeOptions {
  std::string unk_token;  // empty: unknown characters are dropped
  bool fuse_unk = false;
  bool byte_fallback = false;
  bool ignore_merges = false;
  std::string continuing_subword_prefix;
  std::string end_of_word_suffix;
};

// Throws (naming `where`) when a merge names a token that is not in the
// vocabulary or merges into one that is not.
std::unique_ptr<Model> make_bpe(Vocab vocab, const std::vector<std::pair<std::string, std::string>>& merges,
                                BpeOptions options, const Where& where);
std::unique_ptr<Model> make_wordpiece(Vocab vocab, const std::string& unk_token, const std::string& prefix,
                                      std::size_t max_chars, const Where& where);

// "model" of tokenizer.json: BPE or WordPiece.
std::unique_ptr<Model> make_model(const Json& config, const Where& where);

}  // namespace attn::hf::tokenizer_detail
