// The components the JavaScript port does not reproduce (it merges runs of
// punctuation, splits only Isolated/Removed, has ASCII-only \w, ignores
// Metaspace's split), checked against HF's Rust semantics by hand: each
// tokenizer's vocabulary is exactly the expected pieces with ignore_merges,
// so the ids spell out how the text was split.
#include <doctest/doctest.h>

#include <algorithm>

#include <nlohmann/json.hpp>

#include "tokenizer_fixtures.hpp"

using attn::hf::Tokenizer;
using nlohmann::json;

namespace {

// A BPE whose vocabulary is exactly `pieces` (ids in first-seen order) and
// ignore_merges: each expected piece is one id, a wrong piece falls apart
// into dropped characters, so a wrong split shows as different ids.
json piece_tokenizer(const std::vector<std::string>& pieces, json normalizer, json pre_tokenizer) {
  json vocab = json::object();
  for (const auto& p : pieces)
    if (!vocab.contains(p)) vocab[p] = vocab.size();
  return {{"normalizer", std::move(normalizer)},
          {"pre_tokenizer", std::move(pre_tokenizer)},
          {"model", {{"type", "BPE"}, {"vocab", vocab}, {"merges", json::array()}, {"ignore_merges", true}}}};
}

// The pieces' ids in a piece_tokenizer built from the same list.
std::vector<int> ids_of(const std::vector<std::string>& pieces) {
  std::vector<std::string> seen;
  std::vector<int> ids;
  for (const auto& p : pieces) {
    auto it = std::find(seen.begin(), seen.end(), p);
    if (it == seen.end()) {
      seen.push_back(p);
      it = seen.end() - 1;
    }
    ids.push_back(static_cast<int>(it - seen.begin()));
  }
  return ids;
}

void check_split(const std::string& text, const std::vector<std::string>& pieces, const json& normalizer,
                 const json& pre_tokenizer) {
  const Tokenizer t = Tokenizer::from_json(piece_tokenizer(pieces, normalizer, pre_tokenizer).dump());
  const std::string mismatch = hf_test::describe_mismatch(text, ids_of(pieces), t.encode(text));
  CHECK_MESSAGE(mismatch.empty(), mismatch);
}

void check_pre(const std::string& text, const std::vector<std::string>& pieces, const json& pre_tokenizer) {
  check_split(text, pieces, nullptr, pre_tokenizer);
}

json split_string(const std::string& behavior, bool invert = false) {
  return {{"type", "Split"}, {"pattern", {{"String", " "}}}, {"behavior", behavior}, {"invert", invert}};
}

}  // namespace

TEST_CASE("Split's five behaviors follow HF") {
  check_pre("a b  c", {"a", " ", "b", " ", " ", "c"}, split_string("Isolated"));
  check_pre("a b  c", {"a", "b", "c"}, split_string("Removed"));
  check_pre("a b  c", {"a ", "b ", " ", "c"}, split_string("MergedWithPrevious"));
  check_pre("a b  c", {"a", " b", " ", " c"}, split_string("MergedWithNext"));
  check_pre("a b  c", {"a", " ", "b", "  ", "c"}, split_string("Contiguous"));
  check_pre("a b  c", {" ", " ", " "}, split_string("Removed", true));  // invert: the spaces kept, the rest removed
}

TEST_CASE("Split with a regex pattern and invert keeps the matches") {
  const json split = {{"type", "Split"}, {"pattern", {{"Regex", "\\p{L}+"}}}, {"behavior", "Removed"}, {"invert", true}};
  check_pre("Café, naïve 東京!", {"Café", "naïve", "東京"}, split);
}

TEST_CASE("Punctuation isolates each punctuation character") {
  check_pre("Hey!!! you?", {"Hey", "!", "!", "!", " you", "?"}, {{"type", "Punctuation"}, {"behavior", "Isolated"}});
  check_pre("a.b", {"a.", "b"}, {{"type", "Punctuation"}, {"behavior", "MergedWithPrevious"}});
}

TEST_CASE("Whitespace splits words and punctuation runs, over all of Unicode") {
  check_pre("Café naïve, ok!?  東京", {"Café", "naïve", ",", "ok", "!?", "東京"}, {{"type", "Whitespace"}});
  // Rust's \w takes combining marks and joiners inside a word.
  check_pre("nai\u0308ve a\u200Db", {"nai\u0308ve", "a\u200Db"}, {{"type", "Whitespace"}});
}

TEST_CASE("WhitespaceSplit, BertPreTokenizer and Digits") {
  check_pre(" a\tb\u3000c ", {"a", "b", "c"}, {{"type", "WhitespaceSplit"}});
  check_pre("Hello, world!  x", {"Hello", ",", "world", "!", "x"}, {{"type", "BertPreTokenizer"}});
  check_pre("abc123de4", {"abc", "123", "de", "4"}, {{"type", "Digits"}, {"individual_digits", false}});
  check_pre("x12", {"x", "1", "2"}, {{"type", "Digits"}, {"individual_digits", true}});
}

TEST_CASE("Metaspace: replacement, prepend schemes and split") {
  const json split_always = {{"type", "Metaspace"}, {"replacement", "▁"}, {"prepend_scheme", "always"}, {"split", true}};
  check_pre("hello  world", {"▁hello", "▁", "▁world"}, split_always);
  const json legacy = {{"type", "Metaspace"}, {"replacement", "▁"}, {"add_prefix_space", false}};
  check_pre("hi there", {"hi", "▁there"}, legacy);
  const json never_whole = {{"type", "Metaspace"}, {"prepend_scheme", "never"}, {"split", false}};
  check_pre("hi there", {"hi▁there"}, never_whole);
}

TEST_CASE("Metaspace prepend_scheme first prepends only at the start of the text") {
  json config = piece_tokenizer({"▁hi", "hi", "<s>"}, nullptr,
                                {{"type", "Metaspace"}, {"prepend_scheme", "first"}, {"split", false}});
  config["added_tokens"] = {{{"id", 2}, {"content", "<s>"}, {"special", true}, {"normalized", false}}};
  const Tokenizer t = Tokenizer::from_json(config.dump());
  CHECK(t.encode("hi") == std::vector<int>{0});
  CHECK(t.encode("<s>hi") == std::vector<int>{2, 1});
  CHECK(t.encode("hi<s>hi") == std::vector<int>{0, 2, 1});
}

TEST_CASE("normalizers: Strip, Lowercase, Replace, Prepend, NFKC, StripAccents") {
  const json seq = {{"type", "Sequence"},
                    {"normalizers",
                     {{{"type", "Strip"}, {"strip_left", true}, {"strip_right", false}},
                      {{"type", "Lowercase"}},
                      {{"type", "Replace"}, {"pattern", {{"String", "a"}}}, {"content", "4"}},
                      {{"type", "Prepend"}, {"prepend", ">"}}}}};
  check_split("  HAHA ", {">h4h4 "}, seq, nullptr);
  check_split("ﬁ①", {"fi1"}, {{"type", "NFKC"}}, nullptr);
  check_split("İSTANBUL", {"i\u0307stanbul"}, {{"type", "Lowercase"}}, nullptr);  // the full mapping, as Rust's
  check_split("e\u0301", {"é"}, {{"type", "NFC"}}, nullptr);
  check_split("é", {"e\u0301"}, {{"type", "NFD"}}, nullptr);
  check_split("ﬁé", {"fie\u0301"}, {{"type", "NFKD"}}, nullptr);
  const json strip_accents = {{"type", "Sequence"}, {"normalizers", {{{"type", "NFD"}}, {{"type", "StripAccents"}}}}};
  check_split("Ångström", {"Angstrom"}, strip_accents, nullptr);
  check_split("a  b\tc", {"a b c"}, {{"type", "Replace"}, {"pattern", {{"Regex", "\\s+"}}}, {"content", " "}}, nullptr);
}

TEST_CASE("BertNormalizer: clean_text, Chinese characters, accents follow lowercase") {
  const json bert_cased = {{"type", "BertNormalizer"}, {"lowercase", false}, {"strip_accents", nullptr}};
  check_split("Ça\u0001\tva", {"Ça va"}, bert_cased, nullptr);
  const json bert = {{"type", "BertNormalizer"}, {"lowercase", true}, {"strip_accents", nullptr}};
  check_split("Ça 東x", {"ca  東 x"}, bert, nullptr);
}

TEST_CASE("added tokens: single_word, lstrip, rstrip and normalized matching") {
  json config = piece_tokenizer({"a", " ", "b", "[M]", "<x>", "hello"}, {{"type", "Lowercase"}}, nullptr);
  config["added_tokens"] = {
      {{"id", 3}, {"content", "[M]"}, {"single_word", true}, {"normalized", false}},
      {{"id", 4}, {"content", "<x>"}, {"lstrip", true}, {"rstrip", true}, {"normalized", false}},
      {{"id", 5}, {"content", "HELLO"}, {"normalized", true}},
  };
  const Tokenizer t = Tokenizer::from_json(config.dump());
  CHECK(t.encode("a [M] b") == std::vector<int>{0, 1, 3, 1, 2});
  CHECK(t.encode("a[M]b") == std::vector<int>{0, 2});  // not a word of its own: "[" "M" "]" are not in the vocabulary
  CHECK(t.encode("_[M]") == std::vector<int>{});  // "_" is a word character (Rust's \w), so no match either
  CHECK(t.encode("é[M] ") == std::vector<int>{1});
  CHECK(t.encode("a  <x>  b") == std::vector<int>{0, 4, 2});
  CHECK(t.encode("Hello a") == std::vector<int>{5, 1, 0});  // matched after lowercasing, as "hello"
}

TEST_CASE("BPE: unknowns fused or not, byte fallback, subword prefix, end-of-word suffix") {
  const std::string base = R"({"model": {"type": "BPE", "vocab": {"a": 0, "<unk>": 1, "<0x78>": 2}, "merges": [], "unk_token": "<unk>", )";
  CHECK(Tokenizer::from_json(base + R"("fuse_unk": true}})").encode("ayyza") == std::vector<int>{0, 1, 0});
  CHECK(Tokenizer::from_json(base + R"("fuse_unk": false}})").encode("ayya") == std::vector<int>{0, 1, 1, 0});
  // Byte fallback needs every byte's token; "x" has one, "é" does not.
  CHECK(Tokenizer::from_json(base + R"("byte_fallback": true}})").encode("axé") == std::vector<int>{0, 2, 1});
  const Tokenizer prefix = Tokenizer::from_json(
      R"({"model": {"type": "BPE", "vocab": {"a": 0, "##b": 1, "ab": 2, "b": 3}, "merges": ["a ##b"], "continuing_subword_prefix": "##"}})");
  CHECK(prefix.encode("ab") == std::vector<int>{2});
  CHECK(prefix.encode("ba") == std::vector<int>{3});  // "##a" is not a token: dropped without unk_token
  const Tokenizer suffix = Tokenizer::from_json(
      R"({"model": {"type": "BPE", "vocab": {"a": 0, "b</w>": 1, "ab</w>": 2, "b": 3}, "merges": ["a b</w>"], "end_of_word_suffix": "</w>"}})");
  CHECK(suffix.encode("ab") == std::vector<int>{2});
  CHECK(suffix.encode("ba") == std::vector<int>{3});
}

TEST_CASE("BPE merges by rank, leftmost first, and without ignore_merges a whole-word token is not taken") {
  const std::string vocab = R"("vocab": {"a": 0, "b": 1, "ab": 2, "ba": 3, "aba": 4, "bab": 5})";
  const Tokenizer t = Tokenizer::from_json(R"({"model": {"type": "BPE", )" + vocab + R"(, "merges": ["b a", "a b", "ab a"]}})");
  CHECK(t.encode("aba") == std::vector<int>{0, 3});   // "b a" ranks first
  CHECK(t.encode("aaa") == std::vector<int>{0, 0, 0});
  CHECK(t.encode("bab") == std::vector<int>{3, 1});   // not "bab": no merge builds it
  const Tokenizer ignore = Tokenizer::from_json(R"({"model": {"type": "BPE", )" + vocab + R"(, "merges": ["b a", "a b"], "ignore_merges": true}})");
  CHECK(ignore.encode("bab") == std::vector<int>{5});
  // A merge listed twice takes its later rank (HF collects the list into a map).
  const Tokenizer repeated = Tokenizer::from_json(
      R"({"model": {"type": "BPE", "vocab": {"a": 0, "b": 1, "c": 2, "ab": 3, "bc": 4}, "merges": ["a b", "b c", "a b"]}})");
  CHECK(repeated.encode("abc") == std::vector<int>{0, 4});
}

TEST_CASE("post-processors: TemplateProcessing as a string, BertProcessing, Sequence") {
  const std::string model = R"("model": {"type": "BPE", "vocab": {"a": 0, "[CLS]": 1, "[SEP]": 2}, "merges": []})";
  const Tokenizer templ = Tokenizer::from_json(
      R"({"post_processor": {"type": "TemplateProcessing", "single": "[CLS] $A [SEP]", "special_tokens": {"[CLS]": {"id": "[CLS]", "ids": [1], "tokens": ["[CLS]"]}, "[SEP]": {"id": "[SEP]", "ids": [2], "tokens": ["[SEP]"]}}}, )" + model + "}");
  CHECK(templ.encode("aa") == std::vector<int>{1, 0, 0, 2});
  const Tokenizer seq = Tokenizer::from_json(
      R"({"post_processor": {"type": "Sequence", "processors": [{"type": "ByteLevel"}, {"type": "BertProcessing", "cls": ["[CLS]", 1], "sep": ["[SEP]", 2]}]}, )" + model + "}");
  CHECK(seq.encode("") == std::vector<int>{1, 2});
}
