// Checks on raw file bytes done before any JSON parsing.
// Binary junk and broken UTF-8 would otherwise surface as confusing lexer
// messages full of raw bytes; here they get one plain, printable message.
#pragma once

#include <cstddef>
#include <string>

#include "files/file_kind.hpp"

namespace attn::io::detail {

// 1-based line and column of a 0-based byte offset, for messages.
struct TextPosition {
  std::size_t line = 1;
  std::size_t column = 1;
};
TextPosition position_of(const std::string& text, std::size_t byte);

// Throws FormatError when the text holds a NUL byte or is not valid UTF-8;
// the message says what `kind` of file was expected.
void check_text_is_utf8(const std::string& text, const FileKind& kind);

// Throws FormatError at the first NUL byte in text[from...]: a file is checked
// chunk by chunk as it is read, so a binary file is refused where its first
// NUL is, not after all of it is in memory.
void check_no_nul(const std::string& text, std::size_t from, const FileKind& kind);

// Throws FormatError, naming the byte, when `head` (the first bytes of a
// file; `whole` when that is all of it) cannot begin JSON text: its first
// character after an optional UTF-8 byte-order mark and JSON whitespace is a
// NUL, invalid UTF-8, or no JSON value's first character. Returns whether
// that character was found (false: only a mark and whitespace so far).
bool check_json_start(const std::string& head, bool whole, const FileKind& kind);

// True when the text is empty or only JSON whitespace.
bool is_blank(const std::string& text);

}  // namespace attn::io::detail
