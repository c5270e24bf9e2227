// Parses JSON text with JsonDomBuilder and phrases every failure as one line
// naming where it happened: the field path when known, else line and column.
// nlohmann's own messages carry exception ids and lexer jargon; we keep only
// the useful part.
#include "json/json_text.hpp"

#include <algorithm>
#include <cctype>
#include <optional>

#include "attn/io/excerpt.hpp"
#include "attn/io/scenario_file.hpp"
#include "json/json_dom_builder.hpp"
#include "json/json_fast_parse.hpp"
#include "files/text_checks.hpp"

namespace attn::io::detail {

namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// True when the text at `start` spells NaN or Infinity, the non-JSON numbers
// other tools (Python's json, JavaScript) like to emit.
bool looks_like_non_finite(const std::string& text, std::size_t start) {
  std::size_t i = start;
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) ++i;
  const std::string word = lower(text.substr(i, 3));
  return word == "nan" || word == "inf";
}

// nlohmann: "[json.exception.parse_error.101] parse error at line 1,
// column 5: syntax error while parsing value - invalid literal; last read: 'x'"
// -> "invalid literal; last read: 'x'".
std::string core_of(const std::string& what) {
  const std::string marker = "syntax error while parsing ";
  std::size_t p = what.find(marker);
  if (p != std::string::npos) {
    const std::size_t dash = what.find(" - ", p);
    if (dash != std::string::npos) return what.substr(dash + 3);
    return what.substr(p);
  }
  p = what.find("] ");
  return p == std::string::npos ? what : what.substr(p + 2);
}

// "...; last read: '<token>'" quotes all the lexer read of the token, which
// for a string that never ends is the rest of the file: keep its start.
std::string short_token(const std::string& core) {
  const std::string marker = "last read: '";
  const std::size_t p = core.find(marker);
  if (p == std::string::npos || core.back() != '\'') return core;
  const std::size_t start = p + marker.size();
  return core.substr(0, start) + excerpt(core.substr(start, core.size() - 1 - start)) + "'";
}

std::string where(const std::string& text, std::size_t byte) {
  const TextPosition pos = position_of(text, byte);
  return "line " + std::to_string(pos.line) + ", column " + std::to_string(pos.column);
}

std::string in_path(const std::string& path) {
  return path.empty() ? std::string() : " (in " + path + ")";
}

std::string message_for(const ParseFailure& f, const std::string& text, const FileKind& kind,
                        std::size_t max_depth) {
  using Kind = ParseFailure::Kind;
  switch (f.kind) {
    case Kind::TooDeep: {
      // A hostile file's path is mostly "[0][0]...": only a named start
      // (e.g. "attnviz.view[0]...") helps, and only its beginning.
      std::string path = f.path.empty() || f.path[0] == '[' ? std::string() : f.path;
      if (path.size() > 40) path = path.substr(0, 40) + "...";
      const std::string needed = kind.nesting_needed == 0 ? std::string()
                                 : std::string("; a ") + kind.noun + " needs at most " + std::to_string(kind.nesting_needed);
      return "nesting is deeper than " + std::to_string(max_depth) + " levels of arrays/objects" + in_path(path) + needed;
    }
    case Kind::TooLong:
      return (f.path.empty() ? std::string("a string") : f.path) + ": text of " + std::to_string(f.length) +
             " bytes is too long (text in a file is limited to " + std::to_string(kMaxStringBytes / 1024) + " KiB)";
    case Kind::DuplicateKey:
      return f.path + ": duplicate key (it appears more than once in the same object)";
    case Kind::NumberOverflow:
      return (f.path.empty() ? std::string("number") : f.path) +
             ": not finite (" + (f.token.size() > 24 ? f.token.substr(0, 20) + "... (" + std::to_string(f.token.size()) + " digits)" : f.token) +
             " is too large for a double)";
    case Kind::Syntax:
    case Kind::None:
      break;
  }
  // The lexer position counts the byte it failed on, so it is one past the
  // 0-based offset; at the end of input it passes text.size().
  const std::size_t offset = f.byte == 0 ? 0 : f.byte - 1;
  if (offset >= text.size() || f.token == "<end of input>" || f.token.empty()) {
    return "file ends unexpectedly at byte " + std::to_string(text.size()) +
           in_path(f.path) + "; is it truncated?";
  }
  const std::size_t token_start = offset + 1 >= f.token.size() ? offset + 1 - f.token.size() : 0;
  if (looks_like_non_finite(text, token_start) || looks_like_non_finite(text, offset)) {
    return (f.path.empty() ? std::string("value") : f.path) +
           ": NaN and Infinity are not valid JSON numbers (at " + where(text, offset) +
           "); write a finite number";
  }
  const std::string hint = text[offset] == '\'' ? " (JSON strings use double quotes)" : "";
  return "invalid JSON at " + where(text, offset) + in_path(f.path) + ": " + short_token(core_of(f.detail)) + hint;
}

}  // namespace

namespace {

// Text already checked for blankness and encoding.
nlohmann::json parse_checked(const std::string& text, const FileKind& kind, std::size_t max_depth) {
  JsonDomBuilder builder(max_depth);
  const bool ok = nlohmann::json::sax_parse(text, &builder, nlohmann::json::input_format_t::json,
                                            /*strict=*/true, /*ignore_comments=*/false);
  if (!ok) throw FormatError(message_for(builder.failure(), text, kind, max_depth));
  return std::move(builder.result());
}

void check_text(const std::string& text, const FileKind& kind) {
  if (is_blank(text)) throw FormatError("file is empty; expected " + (*kind.noun ? json_of(kind) + " object" : json_of(kind)));
  check_text_is_utf8(text, kind);
  check_json_start(text, /*whole=*/true, kind);  // as when reading a file, so both say the same
}

}  // namespace

nlohmann::json parse_json_text(const std::string& text, const FileKind& kind, std::size_t max_depth) {
  check_text(text, kind);
  // Plainly valid text, the common case, through simdjson; the rest (and
  // every error message) through nlohmann.
  if (std::optional<nlohmann::json> doc = fast_parse(text, max_depth)) return std::move(*doc);
  return parse_checked(text, kind, max_depth);
}

nlohmann::json parse_json_text_with_nlohmann(const std::string& text, const FileKind& kind, std::size_t max_depth) {
  check_text(text, kind);
  return parse_checked(text, kind, max_depth);
}

}  // namespace attn::io::detail
