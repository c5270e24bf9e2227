#pragma once
// The tokenizers' split patterns through PCRE2 in UTF + UCP mode (\p{L},
// \s and \w over all of Unicode), close to the Oniguruma / fancy-regex
// syntax that tokenizer.json files are written for.
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace attn::hf::tokenizer_detail {

using Span = std::pair<std::size_t, std::size_t>;  // byte [begin, end)

class Regex {
 public:
  // Throws std::runtime_error "<where>: regex ... does not compile (PCRE2: ...)".
  Regex(const std::string& pattern, const std::string& where);
  // Every non-overlapping match, left to right. A pattern that runs past
  // PCRE2's match limit ends the list there rather than hanging encode().
  std::vector<Span> find_all(std::string_view text) const;
  static std::string escape(std::string_view literal);

 private:
  std::shared_ptr<void> code_;  // pcre2_code_8, freed by its deleter
};

}  // namespace attn::hf::tokenizer_detail
