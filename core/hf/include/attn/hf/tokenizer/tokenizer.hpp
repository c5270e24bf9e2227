#pragma once
// Hugging Face tokenizers, exact: encode() returns the ids that the Python
// `tokenizer(text)["input_ids"]` returns (special tokens added by the
// post-processor included), for BPE (byte-level, Metaspace, byte fallback)
// and WordPiece tokenizers, read from tokenizer.json or the older vocab files.
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attn::hf {

class GgufFile;

namespace tokenizer_detail {
struct Impl;
}

class Tokenizer {  // immutable after load, cheap to copy (shares its tables)
 public:
  // tokenizer.json if present, else vocab.json + merges.txt (GPT-2 style
  // byte-level BPE), else vocab.txt (BERT WordPiece; lower-casing from
  // tokenizer_config.json's do_lower_case, default true). Throws
  // ModelError (a std::runtime_error) naming the file and what is wrong;
  // encode() throws it too when a split pattern runs past its budget.
  static Tokenizer load_folder(const std::filesystem::path& dir);
  // The same errors, named "tokenizer.json", for tests and fuzzing.
  static Tokenizer from_json(std::string_view tokenizer_json_text);
  // A GGUF file's own tokenizer, from its tokenizer.ggml.* metadata:
  // byte-level BPE ("gpt2", gguf_tokenizer.cpp) or SentencePiece ("llama",
  // gguf_sentencepiece.cpp); load_folder on a .gguf file's path calls it.
  static Tokenizer load_gguf(const GgufFile& file);

  // = HF input_ids, special tokens included. Invalid UTF-8 bytes are read
  // as U+FFFD (HF only ever sees valid text: Python decodes first).
  std::vector<int> encode(std::string_view utf8_text) const;
  // Readable piece for display: byte-level pieces mapped back to bytes
  // (invalid UTF-8 shown as "\xNN"), "▁" shown as a space, "<0x0A>" as
  // "\n", "##" kept for WordPiece. Empty for an unknown id.
  std::string token_text(int id) const;
  // The id's string as the vocabulary stores it ("Ġan", "▁the", "##ing",
  // "<0x0A>"), unchanged. Empty for an unknown id.
  std::string token_piece(int id) const;
  // "BPE, byte-level", "BPE, Metaspace with byte fallback", "WordPiece", ...
  std::string kind() const;
  // Largest id + 1, added tokens included.
  int vocab_size() const;
  std::optional<int> token_id(std::string_view token) const;

 private:
  explicit Tokenizer(std::shared_ptr<const tokenizer_detail::Impl> impl);
  std::shared_ptr<const tokenizer_detail::Impl> impl_;
};

}  // namespace attn::hf
