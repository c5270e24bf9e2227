// libFuzzer target for tokenizer.json: any input must either be refused
// with std::runtime_error or load into a tokenizer that encodes a few fixed
// texts with every id inside its vocabulary and shows every id's text.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "attn/hf/tokenizer/tokenizer.hpp"

namespace {

void require(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "fuzz_tokenizer: %s\n", what);
    std::abort();
  }
}

constexpr const char* kTexts[] = {
    "", "Hello, world!", "  don't  12345\t\n\r\n", "Café naïve 東京 😀👨‍👩‍👧", "<|endoftext|> [CLS] <s>", "\xFF\xC0 bad",
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::optional<attn::hf::Tokenizer> tok;
  try {
    tok = attn::hf::Tokenizer::from_json(std::string_view(reinterpret_cast<const char*>(data), size));
  } catch (const std::runtime_error&) {
    return 0;  // refused with a message: fine
  }
  // Keeps each input fast: the fuzzer is after logic, not table size.
  if (tok->vocab_size() > 100000) return 0;
  for (const char* text : kTexts) {
    for (int id : tok->encode(text)) {
      require(id >= 0 && id < tok->vocab_size(), "an id outside the vocabulary");
      (void)tok->token_text(id);
    }
  }
  (void)tok->kind();
  return 0;
}
