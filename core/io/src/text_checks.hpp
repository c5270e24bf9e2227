// Checks on raw file bytes done before any JSON parsing.
// Binary junk and broken UTF-8 would otherwise surface as confusing lexer
// messages full of raw bytes; here they get one plain, printable message.
#pragma once

#include <cstddef>
#include <string>

#include "file_kind.hpp"

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

// True when the text is empty or only JSON whitespace.
bool is_blank(const std::string& text);

}  // namespace attn::io::detail
