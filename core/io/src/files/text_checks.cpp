// Byte-level checks (UTF-8 validity, NUL bytes, blankness) on file text.
// They run before the JSON parser so a binary file is reported as such,
// with a position, instead of as a JSON syntax error quoting raw bytes.
#include "files/text_checks.hpp"

#include <cstdio>
#include <cstring>

#include "attn/io/scenario_file.hpp"

namespace attn::io::detail {

TextPosition position_of(const std::string& text, std::size_t byte) {
  TextPosition pos;
  const std::size_t end = byte < text.size() ? byte : text.size();
  for (std::size_t i = 0; i < end; ++i) {
    if (text[i] == '\n') {
      ++pos.line;
      pos.column = 1;
    } else if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) {
      ++pos.column;  // count characters, not UTF-8 continuation bytes
    }
  }
  return pos;
}

namespace {

// Length of the UTF-8 sequence starting at text[i], or 0 when invalid.
// Rejects overlong forms, surrogates and code points above U+10FFFF.
std::size_t utf8_sequence_length(const std::string& text, std::size_t i) {
  const auto byte = [&](std::size_t k) {
    return static_cast<unsigned char>(text[k]);
  };
  const unsigned char b0 = byte(i);
  if (b0 < 0x80) return 1;
  std::size_t len = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    len = 2;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    len = 3;
    if (b0 == 0xE0) lo = 0xA0;  // overlong
    if (b0 == 0xED) hi = 0x9F;  // UTF-16 surrogates
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    len = 4;
    if (b0 == 0xF0) lo = 0x90;  // overlong
    if (b0 == 0xF4) hi = 0x8F;  // above U+10FFFF
  } else {
    return 0;
  }
  if (i + len > text.size()) return 0;
  if (byte(i + 1) < lo || byte(i + 1) > hi) return 0;
  for (std::size_t k = 2; k < len; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
  }
  return len;
}

std::string hex_byte(unsigned char b) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "0x%02X", static_cast<unsigned>(b));
  return buf;
}

[[noreturn]] void refuse_nul(const std::string& text, std::size_t i, const FileKind& kind) {
  const TextPosition p = position_of(text, i);
  throw FormatError("not a text file: NUL byte at byte " + std::to_string(i) + " (line " + std::to_string(p.line) +
                    "); expected " + json_of(kind));
}

[[noreturn]] void refuse_invalid_byte(const std::string& text, std::size_t i, const FileKind& kind) {
  const TextPosition p = position_of(text, i);
  throw FormatError("not UTF-8 text: invalid byte " + hex_byte(static_cast<unsigned char>(text[i])) + " at byte " +
                    std::to_string(i) + " (line " + std::to_string(p.line) + ", column " + std::to_string(p.column) +
                    "); expected " + json_of(kind));
}

bool is_json_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// The first byte of every JSON value: an object, an array, a string, a
// number, true, false or null.
bool begins_json(char c) {
  return c == '{' || c == '[' || c == '"' || c == '-' || (c >= '0' && c <= '9') || c == 't' || c == 'f' || c == 'n';
}

}  // namespace

void check_text_is_utf8(const std::string& text, const FileKind& kind) {
  std::size_t i = 0;
  while (i < text.size()) {
    if (text[i] == '\0') refuse_nul(text, i, kind);
    const std::size_t len = utf8_sequence_length(text, i);
    if (len == 0) refuse_invalid_byte(text, i, kind);
    i += len;
  }
}

void check_no_nul(const std::string& text, std::size_t from, const FileKind& kind) {
  if (from >= text.size()) return;
  const void* nul = std::memchr(text.data() + from, 0, text.size() - from);
  if (nul) refuse_nul(text, static_cast<std::size_t>(static_cast<const char*>(nul) - text.data()), kind);
}

bool check_json_start(const std::string& head, bool whole, const FileKind& kind) {
  std::size_t i = head.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;  // nlohmann skips a byte-order mark
  while (i < head.size() && is_json_space(head[i])) ++i;
  if (i >= head.size()) return false;
  if (begins_json(head[i])) return true;
  if (head[i] == '\0') refuse_nul(head, i, kind);
  // A character of up to 4 bytes: wait for all of it before judging it.
  if (!whole && i + 4 > head.size()) return false;
  const std::size_t len = utf8_sequence_length(head, i);
  if (len == 0) refuse_invalid_byte(head, i, kind);
  const auto byte = static_cast<unsigned char>(head[i]);
  const std::string shown = byte < 0x20 || byte == 0x7F ? hex_byte(byte) : "'" + head.substr(i, len) + "'";
  const TextPosition p = position_of(head, i);
  throw FormatError("not JSON: byte " + std::to_string(i) + " (line " + std::to_string(p.line) + ", column " +
                    std::to_string(p.column) + ") is " + shown + ", which no JSON value starts with; expected " +
                    json_of(kind));
}

bool is_blank(const std::string& text) {
  for (char c : text) {
    if (!is_json_space(c)) return false;
  }
  return true;
}

}  // namespace attn::io::detail
