#include "tokenizer/regex.hpp"

#include <pcre2.h>

#include <stdexcept>

#include "tokenizer/unicode.hpp"

namespace attn::hf::tokenizer_detail {

Regex::Regex(const std::string& pattern, const std::string& where) {
  int error = 0;
  PCRE2_SIZE offset = 0;
  pcre2_code* code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data()), pattern.size(),
                                   PCRE2_UTF | PCRE2_UCP, &error, &offset, nullptr);
  if (code == nullptr) {
    PCRE2_UCHAR message[256];
    pcre2_get_error_message(error, message, sizeof message);
    throw std::runtime_error(where + ": regex \"" + pattern + "\" does not compile (PCRE2: " +
                             reinterpret_cast<const char*>(message) + " at offset " + std::to_string(offset) + ")");
  }
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
    int rc = pcre2_match(code, subject, text.size(), start, PCRE2_NO_UTF_CHECK, data.get(), context.get());
    if (rc < 0 && rc != PCRE2_ERROR_NOMATCH)  // the JIT's stack ran out: the interpreter uses the heap
      rc = pcre2_match(code, subject, text.size(), start, PCRE2_NO_UTF_CHECK | PCRE2_NO_JIT, data.get(), context.get());
    if (rc < 0) break;  // no match, or the match limit
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
