// Every refusal names the file and what is wrong.
#include <doctest/doctest.h>

#include <fstream>

#include "tokenizer_fixtures.hpp"

using attn::hf::Tokenizer;

namespace {

std::string error_of(const std::string& json) {
  try {
    (void)Tokenizer::from_json(json);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "(loaded)";
}

// A BPE tokenizer.json with these parts replaced.
std::string bpe_json(const std::string& model_fields, const std::string& rest = "") {
  return R"({"version": "1.0", )" + rest + R"("model": {"type": "BPE", )" + model_fields + "}}";
}

const std::string kVocab = R"("vocab": {"a": 0, "b": 1, "ab": 2}, "merges": ["a b"])";

}  // namespace

TEST_CASE("a well-formed minimal BPE file loads") {
  const Tokenizer t = Tokenizer::from_json(bpe_json(kVocab));
  CHECK(t.encode("abab") == std::vector<int>{2, 2});
  CHECK(t.encode("ba") == std::vector<int>{1, 0});
  CHECK(t.encode("c").empty());  // no unk_token: HF drops the character
  // null is the default for every optional field, as serde reads it.
  CHECK_NOTHROW(Tokenizer::from_json(bpe_json(kVocab + R"(, "byte_fallback": null, "fuse_unk": null, "unk_token": null)")));
}

TEST_CASE("malformed JSON names the byte") {
  CHECK(error_of(R"({"model": )") == "tokenizer.json: not valid JSON at byte 11");
  CHECK(error_of("") == "tokenizer.json: not valid JSON at byte 1");
  CHECK(error_of("[1, 2]") == "tokenizer.json: must hold a JSON object");
  CHECK(error_of("[23e555555555]") == "tokenizer.json: not valid JSON (a number is too large for a double)");
}

TEST_CASE("unknown model types are named") {
  CHECK(error_of(R"({"model": {"type": "Unigram", "vocab": []}})") ==
        "tokenizer.json: model.type \"Unigram\" is not supported (BPE and WordPiece are)");
  CHECK(error_of(R"({"version": "1.0"})") == "tokenizer.json: model is missing");
}

TEST_CASE("missing or mistyped vocabularies are named") {
  CHECK(error_of(bpe_json(R"("merges": [])")) == "tokenizer.json: model.vocab is missing");
  CHECK(error_of(bpe_json(R"("vocab": ["a"], "merges": [])")) ==
        "tokenizer.json: model.vocab must be an object of token: id");
  CHECK(error_of(bpe_json(R"("vocab": {"a": "zero"}, "merges": [])")) ==
        "tokenizer.json: model.vocab.a must be a non-negative integer");
  CHECK(error_of(bpe_json(R"("vocab": {"a": -1}, "merges": [])")) ==
        "tokenizer.json: model.vocab.a must be a non-negative integer");
  CHECK(error_of(bpe_json(R"("vocab": {"a": 99999999999}, "merges": [])")) ==
        "tokenizer.json: model.vocab.a is too large for a token id");
}

TEST_CASE("merges naming unknown tokens are refused") {
  CHECK(error_of(bpe_json(R"("vocab": {"a": 0, "b": 1}, "merges": ["a x"])")) ==
        "tokenizer.json: model.merges[0] names \"x\", which is not in the vocabulary");
  CHECK(error_of(bpe_json(R"("vocab": {"a": 0, "b": 1}, "merges": [["a", "b"]])")) ==
        "tokenizer.json: model.merges[0] makes \"ab\", which is not in the vocabulary");
  CHECK(error_of(bpe_json(R"("vocab": {"a": 0}, "merges": ["ab"])")) ==
        "tokenizer.json: model.merges[0] \"ab\" is not two tokens separated by a space");
  CHECK(error_of(bpe_json(R"("vocab": {"a": 0}, "merges": [7])")) ==
        "tokenizer.json: model.merges[0] must be a string \"a b\" or a pair [\"a\", \"b\"]");
  CHECK(error_of(bpe_json(R"("vocab": {"a": 0}, "merges": [], "unk_token": "<unk>")")) ==
        "tokenizer.json: model.merges unk_token \"<unk>\" is not in the vocabulary");
}

TEST_CASE("a pattern PCRE2 cannot compile is named with PCRE2's reason") {
  const std::string split = R"("pre_tokenizer": {"type": "Split", "pattern": {"Regex": "(unclosed"}, "behavior": "Isolated", "invert": false}, )";
  CHECK(error_of(bpe_json(kVocab, split)) ==
        "tokenizer.json: pre_tokenizer.pattern: regex \"(unclosed\" does not compile "
        "(PCRE2: missing closing parenthesis at offset 9)");
  const std::string replace = R"("normalizer": {"type": "Replace", "pattern": {"Regex": "[z-a]"}, "content": ""}, )";
  CHECK(error_of(bpe_json(kVocab, replace)).find("does not compile (PCRE2: range out of order") != std::string::npos);
}

TEST_CASE("wrong field types are named with their path") {
  CHECK(error_of(bpe_json(kVocab + R"(, "byte_fallback": "yes")")) ==
        "tokenizer.json: model.byte_fallback must be true or false");
  CHECK(error_of(bpe_json(kVocab, R"("added_tokens": {}, )")) == "tokenizer.json: added_tokens must be an array");
  CHECK(error_of(bpe_json(kVocab, R"("added_tokens": [{"id": 5}], )")) ==
        "tokenizer.json: added_tokens[0].content is missing");
  CHECK(error_of(bpe_json(kVocab, R"("normalizer": {"type": "Sequence", "normalizers": [{"type": "Banana"}]}, )")) ==
        "tokenizer.json: normalizer.normalizers[0].type \"Banana\" is not a supported normalizer");
  CHECK(error_of(bpe_json(kVocab, R"("pre_tokenizer": {"type": "Split", "pattern": {"Regex": "a"}, "behavior": "Sideways"}, )")) ==
        "tokenizer.json: pre_tokenizer.behavior \"Sideways\" is not a split behavior "
        "(Removed, Isolated, MergedWithPrevious, MergedWithNext, Contiguous)");
  CHECK(error_of(bpe_json(kVocab, R"("pre_tokenizer": {"type": "Nope"}, )")) ==
        "tokenizer.json: pre_tokenizer.type \"Nope\" is not a supported pre-tokenizer");
  CHECK(error_of(bpe_json(kVocab, R"("pre_tokenizer": 5, )")) == "tokenizer.json: pre_tokenizer must be an object");
  CHECK(error_of(bpe_json(kVocab, R"("post_processor": {"type": "TemplateProcessing", "single": [{"SpecialToken": {"id": "<s>", "type_id": 0}}], "special_tokens": {}}, )")) ==
        "tokenizer.json: post_processor.single[0] names \"<s>\", which is not in special_tokens");
  CHECK(error_of(bpe_json(kVocab, R"("post_processor": {"type": "BertProcessing", "sep": ["[SEP]", 1], "cls": "[CLS]"}, )")) ==
        "tokenizer.json: post_processor.cls must be [token, id]");
  CHECK(error_of(bpe_json(kVocab, R"("post_processor": {"type": "BertProcessing", "sep": ["[SEP]", 3], "cls": ["[CLS]", 1]}, )")) ==
        "tokenizer.json: post_processor adds token id 3, beyond the vocabulary's largest id 2");
  CHECK(error_of(R"({"model": {"type": "WordPiece", "vocab": {"a": 0}}})") ==
        "tokenizer.json: model.unk_token \"[UNK]\" is not in the vocabulary");
}

TEST_CASE("absurd sizes are refused with a message") {
  CHECK(error_of(bpe_json(R"("vocab": {"a": 2000000000}, "merges": [])")) ==
        "tokenizer.json: token id 2000000000 is beyond the 4000000 allowed");
  CHECK(error_of(bpe_json(kVocab, R"("added_tokens": [{"id": 4000000, "content": "x"}], )")) ==
        "tokenizer.json: token id 4000000 is beyond the 4000000 allowed");
  const std::string huge(257u * 1024u * 1024u, ' ');
  CHECK(error_of(huge) == "tokenizer.json: is 257 MB, more than the 256 MB allowed");
}

TEST_CASE("load_folder names the missing or broken file") {
  const auto dir = std::filesystem::temp_directory_path() / "attn_hf_tokenizer_errors";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  auto error_in = [&]() -> std::string {
    try {
      (void)Tokenizer::load_folder(dir);
    } catch (const std::runtime_error& e) {
      return e.what();
    }
    return "(loaded)";
  };
  CHECK(error_in() == dir.string() + ": no tokenizer.json, vocab.json + merges.txt or vocab.txt");
  std::ofstream(dir / "vocab.json") << R"({"a": 0, "b": 1})";
  std::ofstream(dir / "merges.txt") << "#version: 0.2\nab\n";
  CHECK(error_in() == "merges.txt: line 2 is not two tokens separated by a space");
  std::ofstream(dir / "merges.txt") << "#version: 0.2\na c\n";
  CHECK(error_in() == "merges.txt: merges[0] names \"c\", which is not in the vocabulary");
  std::ofstream(dir / "tokenizer.json") << "{oops";
  CHECK(error_in() == "tokenizer.json: not valid JSON at byte 2");
  std::filesystem::remove_all(dir);
}

TEST_CASE("a split pattern that backtracks without end is refused for the text, not run for minutes") {
  // Each position of the text costs (?:x|x)* about 2^16 steps before `.`
  // matches: under PCRE2's per-match limit, but 21 s in all on this machine
  // (PCRE2's JIT, 2 cores), against the 3 s one encode() is given.
  const std::string split =
      R"("pre_tokenizer": {"type": "Split", "pattern": {"Regex": "(?:x|x)*y|."}, "behavior": "Isolated", "invert": false}, )";
  const Tokenizer t = Tokenizer::from_json(bpe_json(kVocab, split));
  CHECK(t.encode("ab") == std::vector<int>{0, 1});  // a fine text still tokenizes
  std::string text;
  while (text.size() < 120000) text += std::string(16, 'x') + "z";
  std::string message;
  try {
    t.encode(text);
  } catch (const std::runtime_error& e) {
    message = e.what();
  }
  CHECK(message.find("tokenizer.json: the split pattern \"(?:x|x)*y|.\" takes too long on this text") != std::string::npos);
  // Past the per-match limit at the very first position: an error, not a token list cut short.
  const Tokenizer deep = Tokenizer::from_json(bpe_json(kVocab, split));
  message.clear();
  try {
    deep.encode(std::string(40, 'x'));
  } catch (const std::runtime_error& e) {
    message = e.what();
  }
  CHECK(message.find("needs more than PCRE2's limit of steps at byte 0") != std::string::npos);
}
