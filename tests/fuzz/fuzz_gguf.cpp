// libFuzzer target for the GGUF reader (input = a whole file). A file
// either is refused with a ModelError or opens, and then every metadata
// array is read and every tensor of a type attnviz reads is dequantized
// whole, and its tokenizer (byte-level BPE or SentencePiece) is rebuilt and
// run on a few words: a range or count the checks let through past the
// buffer is caught by AddressSanitizer.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "attn/hf/gguf/gguf_file.hpp"
#include "attn/hf/model_error.hpp"
#include "attn/hf/tokenizer/tokenizer.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const auto f = attn::hf::GgufFile::view(data, size, "fuzz.gguf");
    double sum = 0;
    for (const auto& [key, value] : f->metadata()) {
      if (value.type != attn::hf::GgufValue::Type::Array) continue;
      if (value.element_type == attn::hf::GgufValue::Type::String) sum += static_cast<double>(attn::hf::gguf_strings(*f, key).size());
      else if (value.element_type != attn::hf::GgufValue::Type::Array)
        for (double v : attn::hf::gguf_numbers(*f, key)) sum += v;
    }
    for (const attn::hf::GgufTensor& t : f->tensors()) {
      const attn::hf::GgmlTypeTraits* traits = attn::hf::ggml_type_traits(t.type);
      if (!traits || !traits->dequantized || t.elements() > (1u << 20)) continue;
      std::vector<float> out(static_cast<std::size_t>(t.elements()));
      attn::hf::dequantize(static_cast<attn::hf::GgmlType>(t.type), f->bytes(t), out.size(), out.data());
      for (float v : out) sum += v;
    }
    if (f->find("tokenizer.ggml.model")) {
      try {
        sum += static_cast<double>(attn::hf::Tokenizer::load_gguf(*f).encode("Hello world, déjà vu 12").size());
      } catch (const std::exception&) {  // a ModelError, or the rebuilt tokenizer.json's own refusal
      }
    }
    if (sum == 12345.678) std::fprintf(stderr, "%f\n", sum);  // keeps the reads
  } catch (const attn::hf::ModelError&) {
  }
  return 0;
}
