// The table of ggml's types (ggml_type.hpp): names, block sizes and bytes,
// as ggml defines them (gguf-py's GGML_QUANT_SIZES lists the same).
#include "attn/hf/gguf/ggml_type.hpp"

#include <array>

namespace attn::hf {
namespace {

constexpr std::size_t kQK = 256;  // a K-quant super-block

struct Row {
  std::uint32_t id;
  GgmlTypeTraits traits;
};

constexpr std::array<Row, 32> kTypes = {{
    {0, {"F32", 1, 4, true}},
    {1, {"F16", 1, 2, true}},
    {2, {"Q4_0", 32, 2 + 16, true}},
    {3, {"Q4_1", 32, 2 + 2 + 16, true}},
    {6, {"Q5_0", 32, 2 + 4 + 16, true}},
    {7, {"Q5_1", 32, 2 + 2 + 4 + 16, true}},
    {8, {"Q8_0", 32, 2 + 32, true}},
    {9, {"Q8_1", 32, 4 + 4 + 32, false}},
    {10, {"Q2_K", kQK, 2 + 2 + kQK / 16 + kQK / 4, true}},
    {11, {"Q3_K", kQK, 2 + kQK / 4 + kQK / 8 + 12, true}},
    {12, {"Q4_K", kQK, 2 + 2 + kQK / 2 + 12, true}},
    {13, {"Q5_K", kQK, 2 + 2 + kQK / 2 + kQK / 8 + 12, true}},
    {14, {"Q6_K", kQK, 2 + kQK / 2 + kQK / 4 + kQK / 16, true}},
    {15, {"Q8_K", kQK, 4 + kQK + kQK / 8, false}},
    {16, {"IQ2_XXS", kQK, 2 + kQK / 4, false}},
    {17, {"IQ2_XS", kQK, 2 + kQK / 4 + kQK / 32, false}},
    {18, {"IQ3_XXS", kQK, 2 + kQK / 4 + kQK / 8, false}},
    {19, {"IQ1_S", kQK, 2 + kQK / 8 + kQK / 16, false}},
    {20, {"IQ4_NL", 32, 2 + 16, false}},
    {21, {"IQ3_S", kQK, 2 + kQK / 4 + kQK / 8 + kQK / 32 + 4, false}},
    {22, {"IQ2_S", kQK, 2 + kQK / 4 + kQK / 16, false}},
    {23, {"IQ4_XS", kQK, 2 + 2 + kQK / 2 + kQK / 64, false}},
    {24, {"I8", 1, 1, false}},
    {25, {"I16", 1, 2, false}},
    {26, {"I32", 1, 4, false}},
    {27, {"I64", 1, 8, false}},
    {28, {"F64", 1, 8, false}},
    {29, {"IQ1_M", kQK, kQK / 8 + kQK / 16 + kQK / 32, false}},
    {30, {"BF16", 1, 2, true}},
    {34, {"TQ1_0", kQK, 2 + 4 * 13, false}},
    {35, {"TQ2_0", kQK, 2 + 64, false}},
    {39, {"MXFP4", 32, 1 + 16, false}},
}};

}  // namespace

const GgmlTypeTraits* ggml_type_traits(std::uint32_t id) {
  for (const Row& r : kTypes)
    if (r.id == id) return &r.traits;
  return nullptr;
}

std::string ggml_type_name(std::uint32_t id) {
  const GgmlTypeTraits* t = ggml_type_traits(id);
  return t ? std::string(t->name) : "type " + std::to_string(id);
}

}  // namespace attn::hf
