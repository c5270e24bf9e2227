#pragma once
// The tokenizer.json a GGUF file's tokenizer.ggml.* metadata stands for:
// gguf_tokenizer.cpp writes GPT-2's byte-level BPE ("gpt2") and the parts
// both models share, gguf_sentencepiece.cpp SentencePiece's BPE ("llama").
#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace attn::hf {
class GgufFile;
}

namespace attn::hf::tokenizer_detail {

// llama.cpp's token types (tokenizer.ggml.token_type); 0 (undefined) reads as normal.
enum GgufTokenType : int {
  kGgufNormal = 1,
  kGgufUnknown = 2,
  kGgufControl = 3,
  kGgufUserDefined = 4,
  kGgufUnused = 5,  // a padding slot ("[PAD12]"): in no tokenizer.json
  kGgufByte = 6,
};

struct GgufVocab {
  std::vector<std::string> tokens;  // tokenizer.ggml.tokens, the index being the id
  std::vector<int> types;           // one per token; normal where the file gives none
};

// The tokens and their types, checked: present, valid UTF-8, at most
// 4000000, one type per token, each type 0 to 6. ModelError names the key.
GgufVocab read_gguf_vocab(const GgufFile& f);

// An added_tokens entry: matched whole in the raw text, before normalising.
nlohmann::json gguf_added_token(std::size_t id, const std::string& content, bool special);

// The post-processor HF's fast tokenizers build from add_bos_token and
// add_eos_token ("bos $A eos", "bos $A eos bos $B eos"), read from
// tokenizer.ggml.add_bos_token / add_eos_token (defaults as llama.cpp's
// for the model); null when neither token is added.
nlohmann::json gguf_post_processor(const GgufFile& f, const std::vector<std::string>& tokens, bool add_bos_default);

// tokenizer.ggml.model "llama": SentencePiece's BPE with scores.
nlohmann::json sentencepiece_json(const GgufFile& f);

}  // namespace attn::hf::tokenizer_detail
