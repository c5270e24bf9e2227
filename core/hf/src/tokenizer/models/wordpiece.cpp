// WordPiece (wordpiece.hpp): BERT's greedy longest-match from the left,
// continuations prefixed with ##, a word with no match the unknown token.
#include "attn/io/excerpt.hpp"
#include "tokenizer/models/model.hpp"
#include "tokenizer/text/unicode.hpp"

namespace attn::hf::tokenizer_detail {
namespace {

// BERT's greedy longest-match-first: the longest vocabulary entry at the
// start, then "##"-prefixed entries for the rest; one miss makes the whole
// word the unknown token.
class WordPiece final : public Model {
 public:
  WordPiece(Vocab vocab, int unk_id, std::string prefix, std::size_t max_chars)
      : vocab_(std::move(vocab)), unk_id_(unk_id), prefix_(std::move(prefix)), max_chars_(max_chars) {}

  void tokenize(std::string_view word, std::vector<int>& out) const override {
    if (count_code_points(word) > max_chars_) {
      out.push_back(unk_id_);
      return;
    }
    std::vector<int> ids;
    std::size_t start = 0;
    std::string candidate;
    while (start < word.size()) {
      std::size_t end = word.size();
      int found = -1;
      while (end > start) {
        candidate.assign(start > 0 ? prefix_ : std::string());
        candidate.append(word.substr(start, end - start));
        auto it = vocab_.find(candidate);
        if (it != vocab_.end()) {
          found = it->second;
          break;
        }
        do --end;  // back to the previous character boundary
        while (end > start && (static_cast<unsigned char>(word[end]) & 0xC0u) == 0x80u);
      }
      if (found < 0) {
        out.push_back(unk_id_);
        return;
      }
      ids.push_back(found);
      start = end;
    }
    out.insert(out.end(), ids.begin(), ids.end());
  }

  const Vocab& vocab() const override { return vocab_; }
  std::string kind() const override { return "WordPiece"; }

 private:
  Vocab vocab_;
  int unk_id_;
  std::string prefix_;
  std::size_t max_chars_;
};

}  // namespace

std::unique_ptr<Model> make_wordpiece(Vocab vocab, const std::string& unk_token, const std::string& prefix,
                                      std::size_t max_chars, const Where& where) {
  auto it = vocab.find(unk_token);
  if (it == vocab.end()) fail(where.at("unk_token"), io::quoted_excerpt(unk_token) + " is not in the vocabulary");
  const int unk_id = it->second;
  return std::make_unique<WordPiece>(std::move(vocab), unk_id, prefix, max_chars);
}

}  // namespace attn::hf::tokenizer_detail
