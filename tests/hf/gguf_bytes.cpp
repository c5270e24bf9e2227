// GGUF layouts in memory (gguf_bytes.hpp).
#include "gguf_bytes.hpp"

#include <cstring>

namespace attn::hf::test {

void put_u32(std::string& out, std::uint32_t v) {
  for (int k = 0; k < 4; ++k) out += static_cast<char>((v >> (8 * k)) & 0xFF);
}

void put_u64(std::string& out, std::uint64_t v) {
  for (int k = 0; k < 8; ++k) out += static_cast<char>((v >> (8 * k)) & 0xFF);
}

void put_string(std::string& out, const std::string& s) {
  put_u64(out, s.size());
  out += s;
}

std::string string_value(const std::string& s) {
  std::string v;
  put_string(v, s);
  return v;
}

std::string gguf_bytes(const GgufLayout& layout) {
  std::string out = "GGUF";
  put_u32(out, layout.version);
  put_u64(out, layout.tensor_count == ~0ull ? layout.tensors.size() : layout.tensor_count);
  put_u64(out, layout.key_count == ~0ull ? layout.keys.size() : layout.key_count);
  for (const GgufKey& k : layout.keys) {
    put_string(out, k.key);
    put_u32(out, k.type);
    out += k.value;
  }
  for (const GgufFakeTensor& t : layout.tensors) {
    put_string(out, t.name);
    put_u32(out, static_cast<std::uint32_t>(t.dims.size()));
    for (std::uint64_t d : t.dims) put_u64(out, d);
    put_u32(out, t.type);
    put_u64(out, t.offset);
  }
  while (out.size() % 32 != 0) out += '\0';
  return out + layout.data;
}

GgufLayout small_gguf() {
  GgufLayout g;
  g.keys.push_back({"general.architecture", 8, string_value("llama")});
  g.tensors.push_back({"a", {4, 2}, 0, 0});
  g.tensors.push_back({"b", {8}, 0, 32});
  g.data.assign(64, '\0');
  for (int i = 0; i < 16; ++i) {
    const float v = static_cast<float>(i) * 0.5f;
    std::uint32_t bits = 0;
    static_assert(sizeof bits == sizeof v);
    std::memcpy(&bits, &v, 4);
    for (int k = 0; k < 4; ++k) g.data[static_cast<std::size_t>(4 * i + k)] = static_cast<char>((bits >> (8 * k)) & 0xFF);
  }
  return g;
}

}  // namespace attn::hf::test
