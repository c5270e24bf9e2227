// The tokenizers' regular expressions (regex.hpp), through PCRE2: Unicode
// classes, a compile error named with its pattern, and a time budget so a
// backtracking pattern is refused instead of running for minutes.
#include "attn/hf/model_error.hpp"
#include "tokenizer/text/regex.hpp"

#include <pcre2.h>

#include <chrono>
#include <stdexcept>

#include "attn/io/excerpt.hpp"
#include "tokenizer/text/unicode.hpp"

namespace attn::hf::tokenizer_detail {

namespace {

thread_local MatchBudget* t_budget = nullptr;

double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

MatchBudget::MatchBudget(double seconds) : outer_(t_budget), deadline_(now_seconds() + seconds) {
  // A budget inside another keeps the nearer deadline.
  if (outer_ && outer_->deadline_ < deadline_) deadline_ = outer_->deadline_;
  t_budget = this;
}

MatchBudget::~MatchBudget() { t_budget = outer_; }

void MatchBudget::check(const std::string& pattern) {
  if (t_budget && now_seconds() > t_budget->deadline_)
    throw ModelError("tokenizer.json: the split pattern " + io::quoted_excerpt(pattern) +
                             " takes too long on this text (the whole tokenization is given " +
                             std::to_string(static_cast<int>(kEncodeMatchSeconds)) +
                             " s of pattern matching); it backtracks without end on some input");
}

Regex::Regex(const std::string& pattern, const std::string& where) {
  int error = 0;
  PCRE2_SIZE offset = 0;
  pcre2_code* code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data()), pattern.size(),
                                   PCRE2_UTF | PCRE2_UCP, &error, &offset, nullptr);
  if (code == nullptr) {
    PCRE2_UCHAR message[256];
    pcre2_get_error_message(error, message, sizeof message);
    throw ModelError(where + ": regex \"" + pattern + "\" does not compile (PCRE2: " +
                             reinterpret_cast<const char*>(message) + " at offset " + std::to_string(offset) + ")");
  }
  pattern_ = pattern;
  pcre2_jit_compile(code, PCRE2_JIT_COMPLETE);  // faster where the JIT exists; the interpreter otherwise
  code_ = std::shared_ptr<void>(code, [](void* c) { pcre2_code_free(static_cast<pcre2_code*>(c)); });
}

std::vector<Span> Regex::find_all(std::string_view text) const {
  std::vector<Span> spans;
  auto* code = static_cast<pcre2_code*>(code_.get());
  // Match data per call: one Regex is shared by every thread that encodes.
  std::unique_ptr<pcre2_match_data, void (*)(pcre2_match_data*)> data(
      pcre2_match_data_create_from_pattern(code, nullptr), pcre2_match_data_free);
  std::unique_ptr<pcre2_match_context, void (*)(pcre2_match_context*)> context(pcre2_match_context_create(nullptr),
                                                                              pcre2_match_context_free);
  pcre2_set_match_limit(context.get(), 1000000);
  const auto* subject = reinterpret_cast<PCRE2_SPTR>(text.data());
  std::size_t start = 0;
  while (start <= text.size()) {
    MatchBudget::check(pattern_);
    int rc = pcre2_match(code, subject, text.size(), start, PCRE2_NO_UTF_CHECK, data.get(), context.get());
    if (rc == PCRE2_ERROR_JIT_STACKLIMIT)  // the JIT's stack ran out: the interpreter uses the heap
      rc = pcre2_match(code, subject, text.size(), start, PCRE2_NO_UTF_CHECK | PCRE2_NO_JIT, data.get(), context.get());
    if (rc == PCRE2_ERROR_NOMATCH) break;
    if (rc < 0)
      throw ModelError("tokenizer.json: the split pattern " + io::quoted_excerpt(pattern_) +
                               " needs more than PCRE2's limit of steps at byte " + std::to_string(start) +
                               " of the text, so the text cannot be tokenized");
    const PCRE2_SIZE* ov = pcre2_get_ovector_pointer(data.get());
    const std::size_t b = ov[0];
    const std::size_t e = ov[1];
    if (e < b) break;  // \K tricks; not in any tokenizer
    spans.emplace_back(b, e);
    if (e > b) {
      start = e;
    } else {  // empty match: step over one character
      if (b >= text.size()) break;
      start = b + utf8_length(static_cast<unsigned char>(text[b]));
    }
  }
  return spans;
}

std::string Regex::escape(std::string_view literal) {
  // \Q...\E quotes everything except "\E" itself, which is split apart.
  std::string out = "\\Q";
  for (std::size_t i = 0; i < literal.size(); ++i) {
    if (literal[i] == '\\' && i + 1 < literal.size() && literal[i + 1] == 'E') {
      out += "\\E\\\\\\Q";
      continue;
    }
    out += literal[i];
  }
  return out + "\\E";
}

}  // namespace attn::hf::tokenizer_detail
