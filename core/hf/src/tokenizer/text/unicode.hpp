#pragma once
// UTF-8 stepping and the Unicode properties the tokenizers ask about, on
// top of utf8proc (no hand-written tables). Every function assumes valid
// UTF-8 except sanitize_utf8, which makes it so.
#include <cstddef>
#include <string>
#include <string_view>

namespace attn::hf::tokenizer_detail {

// Invalid bytes become U+FFFD, one per byte (like Python's errors="replace"
// for lone bytes); valid text is returned unchanged.
std::string sanitize_utf8(std::string_view text);
// The code point at text[i]; i moves past it.
char32_t next_code_point(std::string_view text, std::size_t& i);
void append_utf8(std::string& out, char32_t c);
std::size_t utf8_length(unsigned char lead);
std::size_t count_code_points(std::string_view text);

// Rust's char::is_whitespace (the White_Space property).
bool is_whitespace(char32_t c);
// Rust's char::is_numeric (the N* categories).
bool is_numeric(char32_t c);
// Rust regex's \w: letters, marks, decimal digits, connectors, joiners.
bool is_word_char(char32_t c);
// ASCII punctuation or any Unicode P* category (BERT's is_punctuation).
bool is_bert_punctuation(char32_t c);
// C* categories except \t \n \r (BERT's is_control).
bool is_bert_control(char32_t c);
bool is_nonspacing_mark(char32_t c);
// The CJK ideograph blocks BERT pads with spaces.
bool is_chinese_char(char32_t c);
// Rust's char::to_lowercase, appended as UTF-8.
void append_lower(std::string& out, char32_t c);

enum class NormalForm { NFC, NFD, NFKC, NFKD };
std::string normalize_form(std::string_view text, NormalForm form);

}  // namespace attn::hf::tokenizer_detail
