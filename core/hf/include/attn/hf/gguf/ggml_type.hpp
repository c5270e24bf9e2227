#pragma once
// The element types of ggml, as a GGUF file's tensor table names them by
// number: plain floats, and quantized blocks that store a run of weights
// (32 or 256 of them) as small integers with one or two scales. Every type
// ggml defines is known here by its name and block size, so that a file's
// tensor sizes are checked whatever it holds; attnviz dequantizes the types
// llama.cpp's users have (F32, F16, BF16, the legacy Q4_0 to Q8_0 and the
// K-quants Q2_K to Q6_K) and refuses the others by name.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace attn::hf {

enum class GgmlType : std::uint32_t {
  F32 = 0,
  F16 = 1,
  Q4_0 = 2,
  Q4_1 = 3,
  Q5_0 = 6,
  Q5_1 = 7,
  Q8_0 = 8,
  Q8_1 = 9,
  Q2_K = 10,
  Q3_K = 11,
  Q4_K = 12,
  Q5_K = 13,
  Q6_K = 14,
  Q8_K = 15,
  IQ2_XXS = 16,
  IQ2_XS = 17,
  IQ3_XXS = 18,
  IQ1_S = 19,
  IQ4_NL = 20,
  IQ3_S = 21,
  IQ2_S = 22,
  IQ4_XS = 23,
  I8 = 24,
  I16 = 25,
  I32 = 26,
  I64 = 27,
  F64 = 28,
  IQ1_M = 29,
  BF16 = 30,
  TQ1_0 = 34,
  TQ2_0 = 35,
  MXFP4 = 39,
};

struct GgmlTypeTraits {
  std::string_view name;        // "Q4_K"
  std::size_t block_elements;   // weights per block (1 for plain types)
  std::size_t block_bytes;      // bytes per block
  bool dequantized;             // attnviz reads it
};

// The traits of type number `id`, or nullptr for a number ggml does not define.
const GgmlTypeTraits* ggml_type_traits(std::uint32_t id);
// "Q4_K", or "type 31" for an unknown number.
std::string ggml_type_name(std::uint32_t id);

// Dequantizes `count` weights (a whole number of blocks of `type`) from
// `blocks` into `out`, with the float arithmetic of ggml's own reference
// (scales multiplied first, then the quantized value, then the minimum
// subtracted, in float), so that every weight equals llama.cpp's bit for bit.
// `type` must be one the traits mark dequantized.
void dequantize(GgmlType type, const unsigned char* blocks, std::size_t count, float* out);

}  // namespace attn::hf
