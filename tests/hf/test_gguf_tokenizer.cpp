// A GGUF file's own tokenizer (tokenizer.ggml.*, as llama.cpp's converter
// writes it) gives the ids of the model's tokenizer.json, for GPT-2's
// byte-level BPE and Llama 3's split (with its beginning-of-text token).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "attn/hf/gguf/gguf_file.hpp"
#include "attn/hf/model_error.hpp"
#include "attn/hf/tokenizer/tokenizer.hpp"

using namespace attn::hf;

TEST_CASE("gguf tokenizer: the ids equal those of the same vocabulary's tokenizer.json") {
  const std::string gguf = std::string(ATTN_HF_DATA_DIR) + "/../gguf/", hf = std::string(ATTN_HF_DATA_DIR) + "/";
  const std::vector<std::string> texts = {
      "the theme of the thesis", "Hello, world! It's 2026 and 12345 apples.", "  spaces   and\nnew lines\n\n",
      "héllo wörld, ünïcode: 世界 🙂", "<|begin_of_text|>the end<|end_of_text|>", "<|endoftext|>hi", "x", ""};
  for (const auto& [file, folder] : std::vector<std::pair<std::string, std::string>>{
           {"gpt2_f32.gguf", "gpt2"}, {"llama_f32.gguf", "llama_rope_parameters"}, {"qwen2_q8_0.gguf", "qwen2_bias_f16"}}) {
    CAPTURE(file);
    const Tokenizer g = Tokenizer::load_folder(gguf + file);  // a .gguf path reads the file's metadata
    const Tokenizer f = Tokenizer::load_folder(hf + folder);
    for (const std::string& text : texts) {
      CAPTURE(text);
      CHECK(g.encode(text) == f.encode(text));
    }
    CHECK(g.token_text(5) == f.token_text(5));
  }
}

TEST_CASE("gguf tokenizer: a file without one, or with a pre-tokenizer attnviz does not know, is refused by name") {
  try {
    Tokenizer::load_folder(std::string(ATTN_HF_DATA_DIR) + "/../gguf/blocks.gguf");
    FAIL("loaded");
  } catch (const ModelError& e) {
    CHECK(std::string(e.what()).find("has no tokenizer") != std::string::npos);
  }
}
