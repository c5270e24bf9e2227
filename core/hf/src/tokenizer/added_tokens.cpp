// Added and special tokens (added_tokens.hpp): found in the text before
// normalisation and pre-tokenising, with their single-word and strip rules,
// and kept whole as segments of their own.
#include "tokenizer/added_tokens.hpp"

#include <algorithm>

#include "tokenizer/text/unicode.hpp"

namespace attn::hf::tokenizer_detail {
namespace {

char32_t last_char(std::string_view s) {
  std::size_t k = s.size() - 1;
  while (k > 0 && (static_cast<unsigned char>(s[k]) & 0xC0u) == 0x80u) --k;
  return next_code_point(s, k);
}

}  // namespace

void AddedTokenMatcher::add(const AddedToken& token, std::string match_text) {
  if (match_text.empty()) return;
  const auto first = static_cast<unsigned char>(match_text[0]);
  tokens_.push_back({token, std::move(match_text)});
  auto& bucket = by_first_byte_[first];
  bucket.push_back(tokens_.size() - 1);
  // Longest first, so the first hit at a position is the leftmost-longest.
  std::stable_sort(bucket.begin(), bucket.end(),
                   [&](std::size_t a, std::size_t b) { return tokens_[a].match.size() > tokens_[b].match.size(); });
}

std::vector<TextSegment> AddedTokenMatcher::split(std::string_view text) const {
  std::vector<TextSegment> out;
  std::size_t consumed = 0;  // end of the last token taken (after its rstrip)
  std::size_t pos = 0;
  while (pos < text.size()) {
    const Entry* hit = nullptr;
    auto bucket = by_first_byte_.find(static_cast<unsigned char>(text[pos]));
    if (bucket != by_first_byte_.end()) {
      for (std::size_t k : bucket->second) {
        const std::string& m = tokens_[k].match;
        if (text.compare(pos, m.size(), m) == 0) {
          hit = &tokens_[k];
          break;
        }
      }
    }
    if (hit == nullptr) {
      pos += utf8_length(static_cast<unsigned char>(text[pos]));
      continue;
    }
    std::size_t start = pos;
    std::size_t stop = pos + hit->match.size();
    pos = stop;  // the scan goes on after the match, as Aho-Corasick's does
    if (hit->token.single_word) {
      const bool word_before = start > 0 && is_word_char(last_char(text.substr(0, start)));
      std::size_t j = stop;
      const bool word_after = stop < text.size() && is_word_char(next_code_point(text, j));
      if (word_before || word_after) continue;
    }
    if (hit->token.lstrip) {
      std::size_t s = start;
      while (s > consumed) {
        std::size_t k = s - 1;
        while (k > 0 && (static_cast<unsigned char>(text[k]) & 0xC0u) == 0x80u) --k;
        std::size_t j = k;
        if (!is_whitespace(next_code_point(text, j))) break;
        s = k;
      }
      start = s;
    }
    if (hit->token.rstrip) {
      while (stop < text.size()) {
        std::size_t j = stop;
        if (!is_whitespace(next_code_point(text, j))) break;
        stop = j;
      }
    }
    if (start > consumed) out.push_back({std::string(text.substr(consumed, start - consumed)), -1, consumed});
    out.push_back({std::string(), hit->token.id, start});
    consumed = stop;
  }
  if (consumed < text.size() || text.empty()) out.push_back({std::string(text.substr(consumed)), -1, consumed});
  return out;
}

}  // namespace attn::hf::tokenizer_detail
