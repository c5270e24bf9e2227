#pragma once
// GGUF files built in memory, valid or damaged on purpose: the exact layout
// llama.cpp writes (magic, version, counts, metadata, tensor table, padding,
// data), with each field a test may lie in kept as a plain number.
#include <cstdint>
#include <string>
#include <vector>

namespace attn::hf::test {

// Little-endian field writers, for building the layout by hand.
void put_u32(std::string& out, std::uint32_t v);
void put_u64(std::string& out, std::uint64_t v);
void put_string(std::string& out, const std::string& s);  // u64 length + bytes

struct GgufKey {
  std::string key;
  std::uint32_t type = 8;  // string
  std::string value;       // the value's bytes as written after the type (put_string for a string)
};

struct GgufFakeTensor {
  std::string name;
  std::vector<std::uint64_t> dims;  // row length first
  std::uint32_t type = 0;           // F32
  std::uint64_t offset = 0;         // in the data section
};

struct GgufLayout {
  std::uint32_t version = 3;
  std::uint64_t tensor_count = ~0ull;  // ~0: the real count
  std::uint64_t key_count = ~0ull;
  std::vector<GgufKey> keys;
  std::vector<GgufFakeTensor> tensors;
  std::string data;  // the data section, after padding to 32
};

std::string gguf_bytes(const GgufLayout& layout);
// A string key's value bytes.
std::string string_value(const std::string& s);
// A valid file: two F32 tensors, "a" [4, 2] and "b" [8], at offsets 0 and 32, data of 64 bytes.
GgufLayout small_gguf();

}  // namespace attn::hf::test
