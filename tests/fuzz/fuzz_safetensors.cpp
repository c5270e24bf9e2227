// libFuzzer target for a model folder's two parsers: the safetensors header
// (input = a whole file) and config.json (input = its text), chosen by the
// first byte. A file either is refused with a ModelError or opens, and then
// every byte of every tensor it declares is read: a range the checks let
// through past the buffer is caught by AddressSanitizer.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "attn/hf/checkpoint/model_config.hpp"
#include "attn/hf/model_error.hpp"
#include "attn/hf/safetensors/safetensors.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const bool config = (data[0] & 1) != 0;
  try {
    if (config) {
      const attn::hf::ModelConfig c =
          attn::hf::parse_model_config(std::string(reinterpret_cast<const char*>(data + 1), size - 1));
      if (c.n_heads <= 0 || c.head_dim <= 0 || c.n_heads % c.n_kv_heads != 0) {
        std::fprintf(stderr, "fuzz_safetensors: parse_model_config accepted impossible heads\n");
        std::abort();
      }
      return 0;
    }
    const auto f = attn::hf::SafetensorsFile::view(data + 1, size - 1, "fuzz.safetensors");
    double sum = 0;
    for (const auto& t : f->tensors()) {
      if (!t.dtype) continue;
      const std::size_t n = (t.end - t.begin) / attn::hf::dtype_bytes(*t.dtype);
      for (std::size_t i = 0; i < n; ++i) sum += attn::hf::load_element(f->bytes(t), *t.dtype, i);
    }
    if (sum == 12345.678) std::fprintf(stderr, "%f\n", sum);  // keeps the reads
  } catch (const attn::hf::ModelError&) {
  }
  return 0;
}
