// A GGUF file's own tokenizer (tokenizer.ggml.*, as llama.cpp's converter
// writes it) gives the ids of the model's tokenizer.json, for GPT-2's
// byte-level BPE, Llama 3's split (with its beginning-of-text token) and
// SentencePiece's BPE with scores (Llama 2 and Gemma styles, whose ids
// are also those of the JavaScript port of HF tokenizers); damaged
// metadata is refused naming its key.
#include <doctest/doctest.h>

#include <cstring>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "attn/hf/gguf/gguf_file.hpp"
#include "attn/hf/model_error.hpp"
#include "attn/hf/tokenizer/tokenizer.hpp"
#include "gguf_bytes.hpp"

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

namespace {

const std::string kSpTokenizers = std::string(ATTN_HF_DATA_DIR) + "/../tokenizers/";

// expected_ids.json (make_tokenizer_fixtures.sh): the texts and, for `name`, the JavaScript port's ids.
std::pair<std::vector<std::string>, std::vector<std::vector<int>>> sp_expected(const std::string& name) {
  std::ifstream in(kSpTokenizers + "expected_ids.json");
  const nlohmann::json j = nlohmann::json::parse(in);
  return {j.at("texts").get<std::vector<std::string>>(), j.at("ids").at(name).get<std::vector<std::vector<int>>>()};
}

// "[1, 2, 3]", so that a failed check shows the ids.
std::string sp_list(const std::vector<int>& ids) {
  std::string s = "[";
  for (std::size_t i = 0; i < ids.size(); ++i) s += (i ? ", " : "") + std::to_string(ids[i]);
  return s + "]";
}

}  // namespace

// tests/fixtures/make_sp_fixtures.py writes each style's GGUF metadata and
// tokenizer.json from one vocabulary (sp_vocab.py).
TEST_CASE("gguf tokenizer: SentencePiece vocabularies give the ids of their tokenizer.json and of the JavaScript port") {
  for (const auto& [name, bos] : std::vector<std::pair<std::string, std::string>>{{"sp_llama", "<s>"}, {"sp_gemma", "<bos>"}}) {
    CAPTURE(name);
    const Tokenizer g = Tokenizer::load_folder(std::string(ATTN_HF_DATA_DIR) + "/../gguf/" + name + ".gguf");
    const Tokenizer t = Tokenizer::load_folder(kSpTokenizers + name);
    const auto [texts, ids] = sp_expected(name);
    REQUIRE(ids.size() == texts.size());
    REQUIRE(g.token_id(bos));
    for (std::size_t i = 0; i < texts.size(); ++i) {
      CAPTURE(texts[i]);
      const std::vector<int> got = g.encode(texts[i]);
      CHECK(sp_list(got) == sp_list(ids[i]));
      CHECK(sp_list(t.encode(texts[i])) == sp_list(ids[i]));
      REQUIRE(!got.empty());
      CHECK(got.front() == *g.token_id(bos));  // llama.cpp's add_bos_token: the template adds it
    }
    // The same table both ways: every id's piece, the added tokens, the kind.
    REQUIRE(g.vocab_size() == t.vocab_size());
    for (int id = 0; id < g.vocab_size(); ++id) REQUIRE(g.token_piece(id) == t.token_piece(id));
    CHECK(g.kind() == t.kind());
  }
}

TEST_CASE("gguf tokenizer: SentencePiece control tokens written in the text are matched whole") {
  const Tokenizer g = Tokenizer::load_folder(std::string(ATTN_HF_DATA_DIR) + "/../gguf/sp_gemma.gguf");
  for (const char* special : {"<start_of_turn>", "<end_of_turn>", "<eos>", "<unk>"}) {
    CAPTURE(special);
    REQUIRE(g.token_id(special));
    CHECK(g.encode(special) == std::vector<int>{*g.token_id("<bos>"), *g.token_id(special)});
  }
  // A user-defined piece llama.cpp wrote with spaces is "▁▁" again, as in tokenizer.json.
  CHECK(g.token_id("\xE2\x96\x81\xE2\x96\x81"));
  CHECK(!g.token_id("  "));
}

namespace {

using attn::hf::test::put_string;
using attn::hf::test::put_u32;
using attn::hf::test::put_u64;

constexpr std::uint32_t kSpArray = 9, kSpString = 8, kSpBool = 7, kSpF32 = 6, kSpI32 = 5, kSpU32 = 4;

std::string sp_array_head(std::uint32_t type, std::size_t count) {
  std::string v;
  put_u32(v, type);
  put_u64(v, count);
  return v;
}

std::string sp_strings(const std::vector<std::string>& items) {
  std::string v = sp_array_head(kSpString, items.size());
  for (const std::string& s : items) put_string(v, s);
  return v;
}

std::string sp_floats(const std::vector<float>& items) {
  std::string v = sp_array_head(kSpF32, items.size());
  for (float x : items) {
    std::uint32_t bits = 0;
    std::memcpy(&bits, &x, 4);
    put_u32(v, bits);
  }
  return v;
}

std::string sp_ints(const std::vector<int>& items) {
  std::string v = sp_array_head(kSpI32, items.size());
  for (int x : items) put_u32(v, static_cast<std::uint32_t>(x));
  return v;
}

std::string sp_u32(std::uint32_t x) {
  std::string v;
  put_u32(v, x);
  return v;
}

// A small SentencePiece vocabulary's metadata, valid until a test damages it.
struct SpMetadata {
  std::vector<std::string> tokens = {"<unk>", "<s>", "</s>", "\xE2\x96\x81", "a", "b", "\xE2\x96\x81" "a", "ab"};
  std::vector<float> scores = {0, 0, 0, -4, -5, -6, -1, -2};
  std::vector<int> types = {2, 3, 3, 1, 1, 1, 1, 1};
  std::vector<attn::hf::test::GgufKey> extra = {{"tokenizer.ggml.bos_token_id", kSpU32, sp_u32(1)}};
  std::string model = "llama";
  bool with_scores = true;

  std::string refusal() const {
    attn::hf::test::GgufLayout g;
    g.keys.push_back({"tokenizer.ggml.model", kSpString, attn::hf::test::string_value(model)});
    g.keys.push_back({"tokenizer.ggml.tokens", kSpArray, sp_strings(tokens)});
    if (with_scores) g.keys.push_back({"tokenizer.ggml.scores", kSpArray, sp_floats(scores)});
    g.keys.push_back({"tokenizer.ggml.token_type", kSpArray, sp_ints(types)});
    g.keys.insert(g.keys.end(), extra.begin(), extra.end());
    const std::string bytes = attn::hf::test::gguf_bytes(g);
    try {
      Tokenizer::load_gguf(*GgufFile::view(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), "test.gguf"));
    } catch (const ModelError& e) {
      return e.what();
    }
    return "";
  }
};

}  // namespace

TEST_CASE("gguf tokenizer: damaged SentencePiece metadata is refused naming the key") {
  const SpMetadata valid;
  REQUIRE(valid.refusal().empty());
  const auto refused = [](const SpMetadata& m, const std::string& part) {
    const std::string message = m.refusal();
    CAPTURE(message);
    CHECK(message.rfind("test.gguf: ", 0) == 0);
    CHECK(message.find(part) != std::string::npos);
  };
  SpMetadata m = valid;
  m.with_scores = false;
  refused(m, "tokenizer.ggml.scores is missing");
  m = valid;
  m.scores.pop_back();
  refused(m, "tokenizer.ggml.scores has 7 entries for 8 tokens");
  m = valid;
  m.scores[6] = std::numeric_limits<float>::quiet_NaN();
  refused(m, "tokenizer.ggml.scores[6] is NaN");
  m = valid;
  m.types.push_back(1);
  refused(m, "tokenizer.ggml.token_type has 9 entries for 8 tokens");
  m = valid;
  m.types[4] = 9;
  refused(m, "tokenizer.ggml.token_type[4] is 9");
  m = valid;
  m.tokens.clear();
  m.scores.clear();
  m.types.clear();
  refused(m, "tokenizer.ggml.tokens is missing or empty");
  m = valid;
  m.tokens[5] = "\xFF";
  refused(m, "tokenizer.ggml.tokens[5] is not valid UTF-8");
  m = valid;
  m.tokens[5] = std::string(1025, 'b');
  refused(m, "tokenizer.ggml.tokens[5] is 1025 bytes");
  m = valid;
  m.extra.push_back({"tokenizer.ggml.unknown_token_id", kSpU32, sp_u32(8)});
  refused(m, "tokenizer.ggml.unknown_token_id 8 is not a token");
  m = valid;  // llama.cpp adds BOS to SentencePiece text unless told not to: it must be named
  m.extra.clear();
  refused(m, "tokenizer.ggml.add_bos_token is set, but no bos_token_id is a token");
  m.extra.push_back({"tokenizer.ggml.add_bos_token", kSpBool, std::string(1, '\0')});
  CHECK(m.refusal().empty());
  m.extra.push_back({"tokenizer.ggml.scores", kSpString, attn::hf::test::string_value("high")});
  m.with_scores = false;
  refused(m, "tokenizer.ggml.scores");
  m = valid;
  m.model = "t5";
  refused(m, "tokenizer.ggml.model \"t5\" is not read");
}
