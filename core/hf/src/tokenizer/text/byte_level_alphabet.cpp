// GPT-2's byte-level alphabet: each of the 256 bytes as a printable code
// point, so BPE runs on text with no control characters, and back.
#include "tokenizer/text/byte_level_alphabet.hpp"

#include "tokenizer/text/unicode.hpp"

namespace attn::hf::tokenizer_detail {

// GPT-2's bytes_to_unicode(): printable Latin-1 bytes stand for themselves,
// the others take 256, 257, ... in byte order.
static std::array<char32_t, 256> make_code_points() {
  std::array<char32_t, 256> cps{};
  char32_t next = 256;
  for (int b = 0; b < 256; ++b) {
    const bool printable = (b >= 33 && b <= 126) || (b >= 161 && b <= 172) || (b >= 174 && b <= 255);
    cps[static_cast<std::size_t>(b)] = printable ? static_cast<char32_t>(b) : next++;
  }
  return cps;
}

static const std::array<char32_t, 256>& code_points() {
  static const std::array<char32_t, 256> cps = make_code_points();
  return cps;
}

const std::array<std::string, 256>& byte_to_char() {
  static const std::array<std::string, 256> table = [] {
    std::array<std::string, 256> t;
    for (std::size_t b = 0; b < 256; ++b) append_utf8(t[b], code_points()[b]);
    return t;
  }();
  return table;
}

std::string bytes_to_alphabet(std::string_view text) {
  std::string out;
  out.reserve(text.size() * 2);
  for (unsigned char b : text) out += byte_to_char()[b];
  return out;
}

bool alphabet_to_bytes(std::string_view text, std::string& bytes) {
  std::size_t i = 0;
  while (i < text.size()) {
    const char32_t c = next_code_point(text, i);
    if (c < 256 && code_points()[c] == c) {
      bytes += static_cast<char>(c);
    } else if (c >= 256 && c < 256 + 68) {
      // The 68 non-printable bytes, in order.
      bool found = false;
      for (int b = 0; b < 256 && !found; ++b) {
        if (code_points()[static_cast<std::size_t>(b)] == c) {
          bytes += static_cast<char>(b);
          found = true;
        }
      }
      if (!found) return false;
    } else {
      return false;
    }
  }
  return true;
}

}  // namespace attn::hf::tokenizer_detail
