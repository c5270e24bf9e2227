// ggml's block types dequantized by attnviz equal, bit for bit, the weights
// the reference dequantizer in tests/fixtures/ggml_blocks.py wrote beside
// them in tests/data/gguf/blocks.gguf (checked there against gguf-py's):
// for weights its quantizer made and for random bytes with finite scales.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <iomanip>
#include <string>
#include <vector>

#include "attn/hf/gguf/gguf_file.hpp"

using namespace attn::hf;

TEST_CASE("gguf blocks: every type attnviz reads dequantizes bit for bit like the reference") {
  const auto f = GgufFile::open(std::string(ATTN_HF_DATA_DIR) + "/../gguf/blocks.gguf");
  int checked = 0;
  std::vector<std::string> types;
  for (const GgufTensor& t : f->tensors()) {
    if (t.name.size() > 9 && t.name.compare(t.name.size() - 9, 9, ".expected") == 0) continue;
    CAPTURE(t.name);
    const GgufTensor* want = f->tensor(t.name + ".expected");
    REQUIRE(want != nullptr);
    REQUIRE(want->elements() == t.elements());
    std::vector<float> got(t.elements());
    dequantize(static_cast<GgmlType>(t.type), f->bytes(t), got.size(), got.data());
    std::size_t differ = 0, first = 0;
    for (std::size_t i = 0; i < got.size(); ++i) {
      std::uint32_t a = 0, b = 0;
      std::memcpy(&a, &got[i], 4);
      std::memcpy(&b, f->bytes(*want) + 4 * i, 4);
      if (a != b && differ++ == 0) first = i;
    }
    float expected = 0;
    std::memcpy(&expected, f->bytes(*want) + 4 * first, 4);
    CHECK_MESSAGE(differ == 0, ggml_type_name(t.type) << ": " << differ << " of " << got.size()
                                                      << " weights differ; the first, element " << first << ", is "
                                                      << std::setprecision(9) << got[first] << ", the reference " << expected);
    types.push_back(ggml_type_name(t.type));
    ++checked;
  }
  // F32, F16, BF16 and ten block types, the block types twice.
  CHECK(checked == 23);
  for (const char* name : {"F16", "BF16", "Q4_0", "Q4_1", "Q5_0", "Q5_1", "Q8_0", "Q2_K", "Q3_K", "Q4_K", "Q5_K", "Q6_K"})
    CHECK_MESSAGE(std::find(types.begin(), types.end(), name) != types.end(), name);
}

TEST_CASE("gguf blocks: the type table knows every ggml type and reads only those attnviz dequantizes") {
  CHECK(ggml_type_name(12) == "Q4_K");
  CHECK(ggml_type_name(16) == "IQ2_XXS");
  CHECK(ggml_type_name(31) == "type 31");
  REQUIRE(ggml_type_traits(14) != nullptr);
  CHECK(ggml_type_traits(14)->block_bytes == 210);
  CHECK(ggml_type_traits(14)->dequantized);
  CHECK_FALSE(ggml_type_traits(16)->dequantized);
  CHECK(ggml_type_traits(99) == nullptr);
}
