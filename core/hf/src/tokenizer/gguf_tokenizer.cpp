// A GGUF file's own tokenizer (tokenizer.hpp): llama.cpp's converter moved
// tokenizer.json into the metadata (tokenizer.ggml.tokens, token_type,
// merges, and the name of the pre-tokenizer in tokenizer.ggml.pre). This
// writes the tokenizer.json back, the pre-tokenizer's pattern chosen by that
// name as llama.cpp's own table does, and loads it like a folder's: the ids
// are then those of the model's tokenizer.json.
#include <nlohmann/json.hpp>

#include "attn/hf/gguf/gguf_file.hpp"
#include "attn/hf/model_error.hpp"
#include "attn/hf/tokenizer/tokenizer.hpp"
#include "attn/io/excerpt.hpp"

namespace attn::hf {
namespace {

using nlohmann::json;

// Llama 3's split (llama.cpp's "llama-bpe"; also Qwen2-based models whose
// tokenizer.json uses it).
constexpr const char* kLlama3Split =
    "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|"
    "\\s+(?!\\S)|\\s+";
// Qwen2's: digits one at a time.
constexpr const char* kQwen2Split =
    "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|"
    "\\s+(?!\\S)|\\s+";

json byte_level(bool use_regex) {
  return {{"type", "ByteLevel"}, {"add_prefix_space", false}, {"trim_offsets", true}, {"use_regex", use_regex}};
}

json split_then_bytes(const char* pattern) {
  return {{"type", "Sequence"},
          {"pretokenizers",
           {{{"type", "Split"}, {"pattern", {{"Regex", pattern}}}, {"behavior", "Isolated"}, {"invert", false}},
            byte_level(false)}}};
}

// A byte-level BPE's tokenizer.json from the metadata.
json bpe_json(const GgufFile& f) {
  const std::string pre = gguf_string(f, "tokenizer.ggml.pre").value_or("default");
  json j = {{"version", "1.0"}, {"normalizer", nullptr}, {"decoder", byte_level(true)}};
  bool ignore_merges = false;
  if (pre == "gpt-2" || pre == "default") {
    j["pre_tokenizer"] = byte_level(true);
  } else if (pre == "llama-bpe" || pre == "llama3" || pre == "llama-v3") {
    j["pre_tokenizer"] = split_then_bytes(kLlama3Split);
    ignore_merges = true;
  } else if (pre == "qwen2") {
    j["normalizer"] = {{"type", "NFC"}};
    j["pre_tokenizer"] = split_then_bytes(kQwen2Split);
  } else {
    throw ModelError(f.what() + ": tokenizer.ggml.pre " + io::quoted_excerpt(pre) +
                     " names a pre-tokenizer attnviz does not know (gpt-2, llama-bpe and qwen2 are); type token ids instead");
  }
  const std::vector<std::string> tokens = gguf_strings(f, "tokenizer.ggml.tokens");
  if (tokens.empty()) throw ModelError(f.what() + ": tokenizer.ggml.tokens is missing or empty");
  const std::vector<double> types = gguf_numbers(f, "tokenizer.ggml.token_type");
  if (!types.empty() && types.size() != tokens.size())
    throw ModelError(f.what() + ": tokenizer.ggml.token_type has " + std::to_string(types.size()) + " entries for " +
                     std::to_string(tokens.size()) + " tokens");
  json vocab = json::object(), added = json::array();
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const int type = types.empty() ? 1 : static_cast<int>(types[i]);
    if (type == 3 || type == 4)  // control and user-defined tokens: matched whole, before the split
      added.push_back({{"id", i}, {"content", tokens[i]}, {"single_word", false}, {"lstrip", false}, {"rstrip", false},
                       {"normalized", false}, {"special", type == 3}});
    else if (type != 5)  // unused slots (padding) are in no vocabulary
      vocab[tokens[i]] = i;
  }
  j["added_tokens"] = added;
  j["model"] = {{"type", "BPE"}, {"vocab", vocab}, {"merges", gguf_strings(f, "tokenizer.ggml.merges")},
                {"ignore_merges", ignore_merges}, {"byte_fallback", false}, {"dropout", nullptr}, {"unk_token", nullptr},
                {"continuing_subword_prefix", ""}, {"end_of_word_suffix", ""}, {"fuse_unk", false}};
  // The beginning-of-text token, where the model adds one.
  if (gguf_bool(f, "tokenizer.ggml.add_bos_token").value_or(false)) {
    const std::optional<std::uint64_t> bos = gguf_uint(f, "tokenizer.ggml.bos_token_id");
    if (!bos || *bos >= tokens.size()) throw ModelError(f.what() + ": tokenizer.ggml.add_bos_token is set, but no bos_token_id is a token");
    const std::string& b = tokens[static_cast<std::size_t>(*bos)];
    j["post_processor"] = {{"type", "TemplateProcessing"},
                           {"single", {{{"SpecialToken", {{"id", b}, {"type_id", 0}}}}, {{"Sequence", {{"id", "A"}, {"type_id", 0}}}}}},
                           {"pair", {{{"SpecialToken", {{"id", b}, {"type_id", 0}}}}, {{"Sequence", {{"id", "A"}, {"type_id", 0}}}},
                                     {{"SpecialToken", {{"id", b}, {"type_id", 1}}}}, {{"Sequence", {{"id", "B"}, {"type_id", 1}}}}}},
                           {"special_tokens", {{b, {{"id", b}, {"ids", {*bos}}, {"tokens", {b}}}}}}};
  } else {
    j["post_processor"] = nullptr;
  }
  return j;
}

}  // namespace

Tokenizer Tokenizer::load_gguf(const GgufFile& f) {
  const std::string model = gguf_string(f, "tokenizer.ggml.model").value_or("");
  if (model == "gpt2") return from_json(bpe_json(f).dump());
  if (model.empty()) throw ModelError(f.what() + ": the metadata has no tokenizer (tokenizer.ggml.model); type token ids instead");
  throw ModelError(f.what() + ": tokenizer.ggml.model " + io::quoted_excerpt(model) +
                   " is not read yet (gpt2's byte-level BPE is); type token ids instead");
}

}  // namespace attn::hf
