// Short, marked excerpts of long values (see attn/io/excerpt.hpp). Cut on a
// character boundary so the excerpt is still valid UTF-8, and counted in
// characters, as a user sees the value.
#include "attn/io/excerpt.hpp"

#include <nlohmann/json.hpp>

namespace attn::io {

namespace {

bool continues(unsigned char byte) { return (byte & 0xC0) == 0x80; }

std::size_t characters(const std::string& text) {
  std::size_t n = 0;
  for (unsigned char c : text) n += !continues(c);
  return n;
}

// The bytes of the first `count` characters.
std::size_t bytes_of_first(const std::string& text, std::size_t count) {
  std::size_t i = 0;
  for (std::size_t seen = 0; i < text.size(); ++i) {
    if (!continues(static_cast<unsigned char>(text[i])) && seen++ == count) break;
  }
  return i;
}

std::string quoted(const std::string& text) {
  // Replace, not throw, on invalid UTF-8: a message must always be made.
  return nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

std::string with_thousands(std::size_t n) {
  std::string digits = std::to_string(n), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string quoted_excerpt(const std::string& text) {
  const std::size_t n = characters(text);
  if (n <= kExcerptChars) return quoted(text);
  std::string q = quoted(text.substr(0, bytes_of_first(text, kExcerptChars)));
  q.insert(q.size() - 1, "\u2026");  // inside the closing quote
  return q + " (" + with_thousands(n) + " characters)";
}

std::string quoted_ending(const std::string& text) {
  const std::size_t n = characters(text);
  if (n <= kExcerptChars) return quoted(text);
  std::string q = quoted(text.substr(bytes_of_first(text, n - kExcerptChars)));
  q.insert(1, "\u2026");  // inside the opening quote
  return q + " (" + with_thousands(n) + " characters)";
}

std::string excerpt(const std::string& text) {
  const std::size_t n = characters(text);
  if (n <= kExcerptChars) return text;
  return text.substr(0, bytes_of_first(text, kExcerptChars)) + "\u2026 (" + with_thousands(n) + " characters)";
}

}  // namespace attn::io
