// Each tiny tokenizer against the JavaScript port's ids, text by text. The
// legacy folders (vocab.json + merges.txt, vocab.txt) must give the ids of
// the tokenizer.json they were written from.
#include <doctest/doctest.h>

#include "tokenizer_fixtures.hpp"

namespace {

void check_folder(const std::string& folder, const std::string& reference) {
  const attn::hf::Tokenizer tok = attn::hf::Tokenizer::load_folder(hf_test::tokenizer_dir(folder));
  const auto& texts = hf_test::expected().texts;
  const auto ids = hf_test::expected().ids_for(reference);
  REQUIRE(ids.size() == texts.size());
  int failures = 0;
  for (std::size_t i = 0; i < texts.size(); ++i) {
    const std::string mismatch = hf_test::describe_mismatch(texts[i], ids[i], tok.encode(texts[i]));
    if (!mismatch.empty()) {
      ++failures;
      FAIL_CHECK(folder << ": " << mismatch);
    }
  }
  CHECK(failures == 0);
}

}  // namespace

TEST_CASE("gpt2: byte-level BPE with GPT-2's regex matches HF") { check_folder("gpt2", "gpt2"); }
TEST_CASE("llama3: Split regex, ignore_merges and <|begin_of_text|> match HF") { check_folder("llama3", "llama3"); }
TEST_CASE("qwen2: NFC and Qwen2's Split regex match HF") { check_folder("qwen2", "qwen2"); }
TEST_CASE("llama2: Prepend/Replace normalizer with byte fallback matches HF") { check_folder("llama2", "llama2"); }
TEST_CASE("mistral: Metaspace prepend_scheme first matches HF") { check_folder("mistral", "mistral"); }
TEST_CASE("bert: WordPiece with BertNormalizer matches HF") { check_folder("bert", "bert"); }
TEST_CASE("gpt2_legacy: vocab.json + merges.txt give gpt2's ids") { check_folder("gpt2_legacy", "gpt2"); }
TEST_CASE("bert_legacy: vocab.txt gives bert's ids") { check_folder("bert_legacy", "bert"); }
TEST_CASE("roberta_small: ByteLevel add_prefix_space, RobertaProcessing, <mask> lstrip match HF") {
  check_folder("roberta_small", "roberta_small");
}
TEST_CASE("clip_small: Replace regex, Split invert Removed, end_of_word_suffix match HF") {
  check_folder("clip_small", "clip_small");
}
TEST_CASE("wordpiece_small: NFKD, StripAccents, Strip, WhitespaceSplit, Digits match HF") {
  check_folder("wordpiece_small", "wordpiece_small");
}
