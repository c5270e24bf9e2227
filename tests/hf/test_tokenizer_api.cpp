// token_text, token_piece, kind, vocab_size, token_id, invalid UTF-8, copies and speed.
#include <doctest/doctest.h>

#include <chrono>
#include <map>
#include <thread>

#include "tokenizer_fixtures.hpp"

using attn::hf::Tokenizer;

namespace {
const Tokenizer& load(const std::string& name) {
  static std::map<std::string, Tokenizer> cache;
  auto it = cache.find(name);
  if (it == cache.end()) it = cache.emplace(name, Tokenizer::load_folder(hf_test::tokenizer_dir(name))).first;
  return it->second;
}
}  // namespace

TEST_CASE("kind names the model and its pre-tokenization") {
  CHECK(load("gpt2").kind() == "BPE, byte-level");
  CHECK(load("gpt2_legacy").kind() == "BPE, byte-level");
  CHECK(load("llama3").kind() == "BPE, byte-level");
  CHECK(load("qwen2").kind() == "BPE, byte-level");
  CHECK(load("llama2").kind() == "BPE, Metaspace with byte fallback");
  CHECK(load("mistral").kind() == "BPE, Metaspace with byte fallback");
  CHECK(load("bert").kind() == "WordPiece");
  CHECK(load("bert_legacy").kind() == "WordPiece");
}

TEST_CASE("vocab_size and token_id include the added tokens") {
  const Tokenizer& gpt2 = load("gpt2");
  REQUIRE(gpt2.token_id("<|endoftext|>").has_value());
  CHECK(gpt2.vocab_size() == *gpt2.token_id("<|endoftext|>") + 1);
  CHECK(gpt2.token_id("Ġthe").has_value());
  CHECK_FALSE(gpt2.token_id("not a token at all").has_value());
  CHECK(load("bert").token_id("[CLS]") == 2);
  CHECK(load("llama2").token_id("<0x0A>") == 13);
}

TEST_CASE("token_text shows byte-level pieces as text") {
  const Tokenizer& gpt2 = load("gpt2");
  CHECK(gpt2.token_text(*gpt2.token_id("Ġthe")) == " the");
  CHECK(gpt2.token_text(*gpt2.token_id("Ċ")) == "\\n");
  CHECK(gpt2.token_text(*gpt2.token_id("Ã")) == "\\xC3");  // half of a two-byte character
  CHECK(gpt2.token_text(*gpt2.token_id("Ã©")) == "é");  // both halves: the character
  CHECK(gpt2.token_text(*gpt2.token_id("<|endoftext|>")) == "<|endoftext|>");
  CHECK(gpt2.token_text(-1).empty());
  CHECK(gpt2.token_text(gpt2.vocab_size()).empty());
  const auto ids = gpt2.encode("Café");
  std::string joined;
  for (int id : ids) joined += gpt2.token_text(id);
  CHECK(joined == "Café");
}

TEST_CASE("token_text shows Metaspace pieces with spaces and byte tokens escaped") {
  const Tokenizer& llama2 = load("llama2");
  CHECK(llama2.token_text(*llama2.token_id("▁the")) == " the");
  CHECK(llama2.token_text(*llama2.token_id("<0x0A>")) == "\\n");
  CHECK(llama2.token_text(*llama2.token_id("<0xE2>")) == "\\xE2");
  CHECK(llama2.token_text(*llama2.token_id("<0x41>")) == "A");
}

TEST_CASE("token_text keeps WordPiece's ## prefix") {
  const Tokenizer& bert = load("bert");
  const auto ids = bert.encode("attendsx");
  REQUIRE(ids.size() >= 4);
  CHECK(bert.token_text(ids.front()) == "[CLS]");
  CHECK(bert.token_text(ids[1]) == "attends");
  CHECK(bert.token_text(ids[2]) == "##x");
}

TEST_CASE("token_piece returns the vocabulary's string unchanged, where token_text makes it readable") {
  const Tokenizer& gpt2 = load("gpt2");
  CHECK(gpt2.token_piece(*gpt2.token_id("Ġthe")) == "Ġthe");
  CHECK(gpt2.token_piece(*gpt2.token_id("Ã")) == "Ã");
  CHECK(gpt2.token_piece(*gpt2.token_id("<|endoftext|>")) == "<|endoftext|>");
  CHECK(gpt2.token_piece(-1).empty());
  CHECK(gpt2.token_piece(gpt2.vocab_size()).empty());
  const Tokenizer& llama2 = load("llama2");
  CHECK(llama2.token_piece(*llama2.token_id("▁the")) == "▁the");
  CHECK(llama2.token_piece(13) == "<0x0A>");
  const Tokenizer& bert = load("bert");
  CHECK(bert.token_piece(2) == "[CLS]");
}

TEST_CASE("invalid UTF-8 is read as U+FFFD, never a crash") {
  for (const char* name : {"gpt2", "llama3", "qwen2", "llama2", "mistral", "bert"}) {
    const Tokenizer& t = load(name);
    CAPTURE(name);
    CHECK(t.encode("a\xFF\xFE b") == t.encode("a\xEF\xBF\xBD\xEF\xBF\xBD b"));
    CHECK(t.encode("cut \xE2\x82") == t.encode("cut \xEF\xBF\xBD\xEF\xBF\xBD"));
    CHECK_NOTHROW(t.encode(std::string("\0\x80\xC0\xF5\xED\xA0\x80", 7)));
  }
}

TEST_CASE("copies share the tables and encode the same from several threads") {
  const Tokenizer original = load("llama3");
  const Tokenizer copy = original;  // NOLINT(performance-unnecessary-copy-initialization): the copy is the point
  const std::string text = hf_test::expected().texts.back();
  const auto want = original.encode(text);
  std::vector<std::vector<int>> got(4);
  std::vector<std::thread> threads;
  for (std::size_t k = 0; k < got.size(); ++k)
    threads.emplace_back([&, k] { got[k] = (k % 2 ? copy : original).encode(text); });
  for (auto& th : threads) th.join();
  for (const auto& g : got) CHECK(g == want);
}

TEST_CASE("thousands of words encode in milliseconds") {
  std::string text;
  for (int k = 0; k < 20; ++k) text += hf_test::expected().texts.back();  // ~3000 words
  for (const char* name : {"gpt2", "llama2", "bert"}) {
    const Tokenizer& t = load(name);
    const auto start = std::chrono::steady_clock::now();
    const auto ids = t.encode(text);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    CAPTURE(name);
    CAPTURE(ms);
    CHECK(ids.size() > 3000);
    CHECK(ms < 500.0);  // a few ms in Release; generous for sanitizer builds
  }
}

TEST_CASE("long runs without a break encode in linear time") {
  for (const char* name : {"gpt2", "llama3", "qwen2", "llama2", "mistral", "bert", "clip_small"}) {
    const Tokenizer& t = load(name);
    for (const std::string& run : {std::string(200000, 'a'), std::string(200000, ' '), std::string(100000, ' ') + "x",
                                   [] { std::string s; for (int k = 0; k < 20000; ++k) s += "東京"; return s; }()}) {
      const auto start = std::chrono::steady_clock::now();
      const auto ids = t.encode(run);
      const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
      CAPTURE(name);
      CAPTURE(ms);
      CHECK(!ids.empty());
      CHECK(ms < 2000.0);
    }
  }
}
