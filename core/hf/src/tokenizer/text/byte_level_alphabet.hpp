#pragma once
// GPT-2's byte-level alphabet: each byte as one printable code point, so a
// BPE vocabulary of strings can hold every byte sequence.
#include <array>
#include <string>
#include <string_view>

namespace attn::hf::tokenizer_detail {

// The UTF-8 of the code point standing for each byte.
const std::array<std::string, 256>& byte_to_char();
// Every byte of `text` as its alphabet character.
std::string bytes_to_alphabet(std::string_view text);
// Back from alphabet characters to bytes; false if a character is not one.
bool alphabet_to_bytes(std::string_view text, std::string& bytes);

}  // namespace attn::hf::tokenizer_detail
