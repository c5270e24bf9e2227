// libFuzzer target for text: the fuzz bytes (any bytes, invalid UTF-8
// included) are encoded by each committed tiny tokenizer; every id must lie
// inside the vocabulary and encoding the same text twice must agree.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string_view>
#include <vector>

#include "attn/hf/tokenizer/tokenizer.hpp"

namespace {

void require(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "fuzz_tokenizer_text: %s\n", what);
    std::abort();
  }
}

const std::vector<attn::hf::Tokenizer>& tokenizers() {
  static const std::vector<attn::hf::Tokenizer> all = [] {
    std::vector<attn::hf::Tokenizer> v;
    for (const char* name : {"gpt2", "llama3", "qwen2", "llama2", "mistral", "bert", "gpt2_legacy", "bert_legacy"})
      v.push_back(attn::hf::Tokenizer::load_folder(std::filesystem::path(ATTN_TOKENIZER_DATA_DIR) / name));
    return v;
  }();
  return all;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  for (const auto& tok : tokenizers()) {
    const std::vector<int> ids = tok.encode(text);
    for (int id : ids) require(id >= 0 && id < tok.vocab_size(), "an id outside the vocabulary");
    require(tok.encode(text) == ids, "two encodings of one text differ (the word cache?)");
  }
  return 0;
}
