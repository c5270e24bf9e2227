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

// The time one whole tokenization may spend matching split patterns. PCRE2's
// match limit bounds one match; a pattern such as `(?:x|x)*y|.` stays under
// it at every position of a 120 KB text and still took 12 s in all. While a
// budget is alive on a thread, every find_all on that thread draws on it, and
// running out throws. (Time, not steps: PCRE2 does not report the steps a
// successful match took.)
// A real tokenizer's patterns split a megabyte of text in well under a
// second; this is what one encode() gets.
inline constexpr double kEncodeMatchSeconds = 3;

class MatchBudget {
 public:
  explicit MatchBudget(double seconds);
  ~MatchBudget();
  MatchBudget(const MatchBudget&) = delete;
  MatchBudget& operator=(const MatchBudget&) = delete;
  // Throws std::runtime_error naming `pattern` when the budget on this thread is spent.
  static void check(const std::string& pattern);

 private:
  MatchBudget* outer_;
  double deadline_;
};

class Regex {
 public:
  // Throws std::runtime_error "<where>: regex ... does not compile (PCRE2: ...)".
  Regex(const std::string& pattern, const std::string& where);
  // Every non-overlapping match, left to right. A match that runs past
  // PCRE2's match limit, or a tokenization past its MatchBudget, throws
  // std::runtime_error naming the pattern: a token list cut short there
  // would be silently wrong.
  std::vector<Span> find_all(std::string_view text) const;
  static std::string escape(std::string_view literal);

 private:
  std::shared_ptr<void> code_;  // pcre2_code_8, freed by its deleter
  std::string pattern_;         // for messages
};

}  // namespace attn::hf::tokenizer_detail
