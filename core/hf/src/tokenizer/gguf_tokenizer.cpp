// A GGUF file's own tokenizer (tokenizer.hpp): llama.cpp's converter moved
// tokenizer.json into the metadata (tokenizer.ggml.tokens, token_type,
// merges, and the name of the pre-tokenizer in tokenizer.ggml.pre). This
// writes the tokenizer.json back, the pre-tokenizer's pattern chosen by that
// name as llama.cpp's own table does, and loads it like a folder's: the ids
// are then those of the model's tokenizer.json. SentencePiece vocabularies
// ("llama") are rebuilt in gguf_sentencepiece.cpp.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>

#include "attn/hf/gguf/gguf_file.hpp"
#include "attn/hf/model_error.hpp"
#include "attn/hf/tokenizer/tokenizer.hpp"
#include "attn/io/excerpt.hpp"
#include "tokenizer/gguf_tokenizer.hpp"
#include "tokenizer/models/model.hpp"
#include "tokenizer/text/unicode.hpp"

namespace attn::hf {
namespace tokenizer_detail {

using nlohmann::json;

GgufVocab read_gguf_vocab(const GgufFile& f) {
  GgufVocab v;
  v.tokens = gguf_strings(f, "tokenizer.ggml.tokens");
  if (v.tokens.empty()) throw ModelError(f.what() + ": tokenizer.ggml.tokens is missing or empty");
  // The id table is dense (tokenizer_load.cpp); refused here before any work on it.
  if (v.tokens.size() > kMaxVocabEntries)
    throw ModelError(f.what() + ": tokenizer.ggml.tokens has " + std::to_string(v.tokens.size()) +
                     " tokens, more than the 4000000 allowed");
  for (std::size_t i = 0; i < v.tokens.size(); ++i)
    if (sanitize_utf8(v.tokens[i]) != v.tokens[i])  // tokenizer.json is UTF-8: such a token has no place in one
      throw ModelError(f.what() + ": tokenizer.ggml.tokens[" + std::to_string(i) + "] is not valid UTF-8");
  const std::vector<double> types = gguf_numbers(f, "tokenizer.ggml.token_type");
  if (!types.empty() && types.size() != v.tokens.size())
    throw ModelError(f.what() + ": tokenizer.ggml.token_type has " + std::to_string(types.size()) + " entries for " +
                     std::to_string(v.tokens.size()) + " tokens");
  v.types.assign(v.tokens.size(), kGgufNormal);
  for (std::size_t i = 0; i < types.size(); ++i) {
    if (!(types[i] >= 0 && types[i] <= kGgufByte && types[i] == static_cast<int>(types[i])))
      throw ModelError(f.what() + ": tokenizer.ggml.token_type[" + std::to_string(i) + "] is " + std::to_string(types[i]) +
                       ", not one of llama.cpp's token types (0 to 6)");
    v.types[i] = types[i] == 0 ? kGgufNormal : static_cast<int>(types[i]);
  }
  return v;
}

json gguf_added_token(std::size_t id, const std::string& content, bool special) {
  return {{"id", id}, {"content", content}, {"single_word", false}, {"lstrip", false}, {"rstrip", false},
          {"normalized", false}, {"special", special}};
}

json gguf_post_processor(const GgufFile& f, const std::vector<std::string>& tokens, bool add_bos_default) {
  json single = json::array(), pair = json::array(), special = json::object();
  auto token = [&](const char* name, const char* id_key, bool add_default, int type_id, json& out) {
    if (!gguf_bool(f, std::string("tokenizer.ggml.add_") + name + "_token").value_or(add_default)) return;
    const std::optional<std::uint64_t> id = gguf_uint(f, id_key);
    if (!id || *id >= tokens.size())
      throw ModelError(f.what() + ": tokenizer.ggml.add_" + name + "_token is set, but no " + name + "_token_id is a token");
    const std::string& t = tokens[static_cast<std::size_t>(*id)];
    out.push_back({{"SpecialToken", {{"id", t}, {"type_id", type_id}}}});
    special[t] = {{"id", t}, {"ids", {*id}}, {"tokens", {t}}};
  };
  for (int type_id : {0, 1}) {
    json& out = type_id == 0 ? single : pair;
    token("bos", "tokenizer.ggml.bos_token_id", add_bos_default, type_id, out);
    out.push_back({{"Sequence", {{"id", type_id == 0 ? "A" : "B"}, {"type_id", type_id}}}});
    token("eos", "tokenizer.ggml.eos_token_id", false, type_id, out);
  }
  if (special.empty()) return nullptr;
  json both = single;
  for (const json& item : pair) both.push_back(item);
  return {{"type", "TemplateProcessing"}, {"single", single}, {"pair", both}, {"special_tokens", special}};
}

namespace {

// Llama 3's split (llama.cpp's "llama-bpe"; also Qwen2-based models whose
// tokenizer.json uses it).
constexpr const char* kLlama3Split =
    "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|"
    "\\s+(?!\\S)|\\s+";
// Qwen2's: digits one at a time.
constexpr const char* kQwen2Split =
    "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|"
    "\\s+(?!\\S)|\\s+";

json gguf_byte_level(bool use_regex) {
  return {{"type", "ByteLevel"}, {"add_prefix_space", false}, {"trim_offsets", true}, {"use_regex", use_regex}};
}

json gguf_split_then_bytes(const char* pattern) {
  return {{"type", "Sequence"},
          {"pretokenizers",
           {{{"type", "Split"}, {"pattern", {{"Regex", pattern}}}, {"behavior", "Isolated"}, {"invert", false}},
            gguf_byte_level(false)}}};
}

// A byte-level BPE's tokenizer.json from the metadata.
json bpe_json(const GgufFile& f) {
  const std::string pre = gguf_string(f, "tokenizer.ggml.pre").value_or("default");
  json j = {{"version", "1.0"}, {"normalizer", nullptr}, {"decoder", gguf_byte_level(true)}};
  bool ignore_merges = false;
  if (pre == "gpt-2" || pre == "default") {
    j["pre_tokenizer"] = gguf_byte_level(true);
  } else if (pre == "llama-bpe" || pre == "llama3" || pre == "llama-v3") {
    j["pre_tokenizer"] = gguf_split_then_bytes(kLlama3Split);
    ignore_merges = true;
  } else if (pre == "qwen2") {
    j["normalizer"] = {{"type", "NFC"}};
    j["pre_tokenizer"] = gguf_split_then_bytes(kQwen2Split);
  } else {
    throw ModelError(f.what() + ": tokenizer.ggml.pre " + io::quoted_excerpt(pre) +
                     " names a pre-tokenizer attnviz does not know (gpt-2, llama-bpe and qwen2 are); type token ids instead");
  }
  const GgufVocab v = read_gguf_vocab(f);
  json vocab = json::object(), added = json::array();
  for (std::size_t i = 0; i < v.tokens.size(); ++i) {
    const int type = v.types[i];
    if (type == kGgufControl || type == kGgufUserDefined)  // matched whole, before the split
      added.push_back(gguf_added_token(i, v.tokens[i], type == kGgufControl));
    else if (type != kGgufUnused)
      vocab[v.tokens[i]] = i;
  }
  j["added_tokens"] = added;
  j["model"] = {{"type", "BPE"}, {"vocab", vocab}, {"merges", gguf_strings(f, "tokenizer.ggml.merges")},
                {"ignore_merges", ignore_merges}, {"byte_fallback", false}, {"dropout", nullptr}, {"unk_token", nullptr},
                {"continuing_subword_prefix", ""}, {"end_of_word_suffix", ""}, {"fuse_unk", false}};
  j["post_processor"] = gguf_post_processor(f, v.tokens, false);
  return j;
}

// The rebuilt file's text. The tokens were checked; a merge may still hold
// bytes that are not UTF-8, which JSON cannot carry.
std::string gguf_json_text(const GgufFile& f, const json& j) {
  try {
    return j.dump();
  } catch (const json::type_error&) {
    throw ModelError(f.what() + ": tokenizer.ggml.merges holds text that is not valid UTF-8");
  }
}

}  // namespace
}  // namespace tokenizer_detail

Tokenizer Tokenizer::load_gguf(const GgufFile& f) {
  const std::string model = gguf_string(f, "tokenizer.ggml.model").value_or("");
  if (model == "gpt2") return from_json(tokenizer_detail::gguf_json_text(f, tokenizer_detail::bpe_json(f)));
  if (model == "llama") return from_json(tokenizer_detail::gguf_json_text(f, tokenizer_detail::sentencepiece_json(f)));
  if (model.empty()) throw ModelError(f.what() + ": the metadata has no tokenizer (tokenizer.ggml.model); type token ids instead");
  throw ModelError(f.what() + ": tokenizer.ggml.model " + io::quoted_excerpt(model) +
                   " is not read (gpt2's byte-level BPE and llama's SentencePiece are); type token ids instead");
}

}  // namespace attn::hf
