#pragma once
// tokenizer.json's "added_tokens": strings matched in the text before the
// model sees it (special tokens like "<|endoftext|>", and others), each
// becoming its own id.
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace attn::hf::tokenizer_detail {

struct AddedToken {
  int id = 0;
  std::string content;
  bool single_word = false;  // only where no word character touches it
  bool lstrip = false;       // swallows the whitespace on its left
  bool rstrip = false;       // ... and on its right
  bool normalized = true;    // matched in normalized text (else in the raw text)
  bool special = false;
};

struct TextSegment {
  std::string text;  // the slice of text (empty when token >= 0 covers it)
  int token = -1;    // the added token's id, or -1 for ordinary text
  std::size_t offset = 0;  // where the slice starts in the text split
};

// Leftmost-longest matching of a set of tokens (HF uses Aho-Corasick with
// the same rule), with each token's single_word, lstrip and rstrip applied.
class AddedTokenMatcher {
 public:
  void add(const AddedToken& token, std::string match_text);
  bool empty() const { return tokens_.empty(); }
  std::vector<TextSegment> split(std::string_view text) const;

 private:
  struct Entry {
    AddedToken token;
    std::string match;  // the content, normalized for normalized tokens
  };
  std::vector<Entry> tokens_;
  std::unordered_map<unsigned char, std::vector<std::size_t>> by_first_byte_;
};

}  // namespace attn::hf::tokenizer_detail
