// Spells field paths for error messages (see field_path.hpp).
// Plain keys use dots like code would; odd keys are quoted so the path
// stays unambiguous even for keys with spaces, dots or brackets.
#include "json/field_path.hpp"

#include <cctype>

#include "attn/io/excerpt.hpp"

namespace attn::io::detail {

namespace {

bool is_identifier(const std::string& key) {
  if (key.empty() || std::isdigit(static_cast<unsigned char>(key[0]))) return false;
  for (char c : key) {
    const auto u = static_cast<unsigned char>(c);
    if (!std::isalnum(u) && c != '_' && c != '-') return false;
  }
  return true;
}

}  // namespace

std::string path_key(const std::string& parent, const std::string& key) {
  // A long key is quoted in part, like any long value in a message.
  if (key.size() > kExcerptChars && excerpt(key) != key) return parent + "[" + quoted_excerpt(key) + "]";
  if (!is_identifier(key)) {
    std::string quoted = "[\"";
    for (char c : key) {
      if (c == '"' || c == '\\') quoted += '\\';
      // Control characters would break the one-line message; show them as '?'.
      quoted += static_cast<unsigned char>(c) < 0x20 ? '?' : c;
    }
    return parent + quoted + "\"]";
  }
  return parent.empty() ? key : parent + "." + key;
}

std::string path_index(const std::string& parent, std::size_t i) {
  return parent + "[" + std::to_string(i) + "]";
}

}  // namespace attn::io::detail
