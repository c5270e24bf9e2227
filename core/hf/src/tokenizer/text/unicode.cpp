// UTF-8 and Unicode helpers for the tokenizers (unicode.hpp): invalid bytes
// replaced, code points counted and walked, categories from utf8proc.
#include "tokenizer/text/unicode.hpp"

#include <utf8proc.h>

#include <cstdlib>
#include <stdexcept>

namespace attn::hf::tokenizer_detail {

std::string sanitize_utf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    utf8proc_int32_t cp = 0;
    const auto* p = reinterpret_cast<const utf8proc_uint8_t*>(text.data() + i);
    const utf8proc_ssize_t n = utf8proc_iterate(p, static_cast<utf8proc_ssize_t>(text.size() - i), &cp);
    if (n <= 0 || cp < 0) {
      out += "\xEF\xBF\xBD";  // U+FFFD for one bad byte, then resynchronise
      ++i;
      continue;
    }
    out.append(text.substr(i, static_cast<std::size_t>(n)));
    i += static_cast<std::size_t>(n);
  }
  return out;
}

std::size_t utf8_length(unsigned char lead) {
  if (lead < 0x80) return 1;
  if ((lead >> 5) == 0x6) return 2;
  if ((lead >> 4) == 0xE) return 3;
  if ((lead >> 3) == 0x1E) return 4;
  return 1;
}

char32_t next_code_point(std::string_view text, std::size_t& i) {
  const auto lead = static_cast<unsigned char>(text[i]);
  std::size_t n = utf8_length(lead);
  if (i + n > text.size()) n = 1;
  char32_t c = n == 1 ? lead : n == 2 ? (lead & 0x1Fu) : n == 3 ? (lead & 0x0Fu) : (lead & 0x07u);
  for (std::size_t k = 1; k < n; ++k) c = (c << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3Fu);
  i += n;
  return c;
}

void append_utf8(std::string& out, char32_t c) {
  utf8proc_uint8_t buf[4];
  const utf8proc_ssize_t n = utf8proc_encode_char(static_cast<utf8proc_int32_t>(c), buf);
  out.append(reinterpret_cast<const char*>(buf), static_cast<std::size_t>(n));
}

std::size_t count_code_points(std::string_view text) {
  std::size_t n = 0;
  for (char ch : text) n += (static_cast<unsigned char>(ch) & 0xC0u) != 0x80u;
  return n;
}

static utf8proc_category_t category(char32_t c) {
  return utf8proc_category(static_cast<utf8proc_int32_t>(c));
}

bool is_whitespace(char32_t c) {
  // White_Space = the Z* separators plus these controls.
  if ((c >= 0x09 && c <= 0x0D) || c == 0x85) return true;
  const auto cat = category(c);
  return cat == UTF8PROC_CATEGORY_ZS || cat == UTF8PROC_CATEGORY_ZL || cat == UTF8PROC_CATEGORY_ZP;
}

bool is_numeric(char32_t c) {
  const auto cat = category(c);
  return cat == UTF8PROC_CATEGORY_ND || cat == UTF8PROC_CATEGORY_NL || cat == UTF8PROC_CATEGORY_NO;
}

bool is_word_char(char32_t c) {
  if (c == 0x200C || c == 0x200D) return true;  // Join_Control
  const auto cat = category(c);
  return (cat >= UTF8PROC_CATEGORY_LU && cat <= UTF8PROC_CATEGORY_ME) || cat == UTF8PROC_CATEGORY_ND ||
         cat == UTF8PROC_CATEGORY_NL || cat == UTF8PROC_CATEGORY_PC;
}

bool is_bert_punctuation(char32_t c) {
  if ((c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) || (c >= 123 && c <= 126)) return true;
  const auto cat = category(c);
  return cat >= UTF8PROC_CATEGORY_PC && cat <= UTF8PROC_CATEGORY_PO;
}

bool is_bert_control(char32_t c) {
  if (c == '\t' || c == '\n' || c == '\r') return false;
  const auto cat = category(c);
  return cat == UTF8PROC_CATEGORY_CC || cat == UTF8PROC_CATEGORY_CF || cat == UTF8PROC_CATEGORY_CO ||
         cat == UTF8PROC_CATEGORY_CS || cat == UTF8PROC_CATEGORY_CN;
}

bool is_nonspacing_mark(char32_t c) { return category(c) == UTF8PROC_CATEGORY_MN; }

bool is_chinese_char(char32_t c) {
  return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) || (c >= 0x20000 && c <= 0x2A6DF) ||
         (c >= 0x2A700 && c <= 0x2B73F) || (c >= 0x2B740 && c <= 0x2B81F) || (c >= 0x2B920 && c <= 0x2CEAF) ||
         (c >= 0xF900 && c <= 0xFAFF) || (c >= 0x2F800 && c <= 0x2FA1F);
}

void append_lower(std::string& out, char32_t c) {
  // Rust's to_lowercase is the full mapping; it differs from utf8proc's
  // simple one only for U+0130 (İ), which becomes "i" + U+0307.
  if (c == 0x130) {
    out += "i\xCC\x87";
    return;
  }
  append_utf8(out, static_cast<char32_t>(utf8proc_tolower(static_cast<utf8proc_int32_t>(c))));
}

std::string normalize_form(std::string_view text, NormalForm form) {
  if (text.empty()) return {};
  int options = UTF8PROC_STABLE;
  if (form == NormalForm::NFC || form == NormalForm::NFKC) options |= UTF8PROC_COMPOSE;
  else options |= UTF8PROC_DECOMPOSE;
  if (form == NormalForm::NFKC || form == NormalForm::NFKD) options |= UTF8PROC_COMPAT;
  utf8proc_uint8_t* out = nullptr;
  // An explicit length (not NULLTERM), so a U+0000 inside the text survives.
  const utf8proc_ssize_t n =
      utf8proc_map(reinterpret_cast<const utf8proc_uint8_t*>(text.data()), static_cast<utf8proc_ssize_t>(text.size()),
                   &out, static_cast<utf8proc_option_t>(options));
  if (n < 0) {
    std::free(out);
    return std::string(text);  // only on invalid UTF-8, which sanitize_utf8 already removed
  }
  std::string result(reinterpret_cast<const char*>(out), static_cast<std::size_t>(n));
  std::free(out);
  return result;
}

}  // namespace attn::hf::tokenizer_detail
