#pragma once
// A safetensors file, memory-mapped: an 8-byte little-endian header length,
// a JSON header naming each tensor's dtype, shape and byte range, then the
// raw little-endian data. Every range is checked against the file before any
// byte of data is read: a lying header is refused at open, never followed.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "attn/hf/safetensors/dtype.hpp"

namespace attn::platform {
class MappedFile;
}

namespace attn::hf {

// The largest header read: real checkpoints have headers of a few hundred
// kilobytes, so one of 100 MB is damage or an attack.
constexpr std::uint64_t kMaxSafetensorsHeaderBytes = 100ull << 20;

struct TensorInfo {
  std::string name;
  std::string dtype_name;        // as the header spells it ("BF16", "I8", "F8_E4M3", ...)
  std::optional<DType> dtype;    // nullopt for types the forward pass cannot read
  std::vector<std::int64_t> shape;
  std::size_t begin = 0, end = 0;  // byte range in the data section
  std::int64_t elements() const;
  // A tensor of a GGUF file, under its Hugging Face name (gguf_model.cpp):
  std::optional<std::uint32_t> ggml_type;  // a quantized block type of ggml (then dtype is nullopt)
  // llama.cpp's converter interleaves the two rotary halves of each head's
  // rows of Q and K (for ggml's RoPE); this many heads' rows are put back on load.
  int permuted_heads = 0;
  // GPT-2's Conv1D weights, which llama.cpp stores transposed: [out, in].
  bool stored_transposed = false;
};

class SafetensorsFile {
 public:
  // Maps `path` read-only and checks the header. Throws ModelError naming the
  // file: truncated, header too large or not JSON, a tensor whose range
  // overlaps another, leaves a gap, runs past the file or disagrees with its
  // shape and dtype.
  static std::shared_ptr<const SafetensorsFile> open(const std::filesystem::path& path);
  // The same checks on bytes already in memory (tests, fuzzing); `bytes`
  // must outlive the result.
  static std::shared_ptr<const SafetensorsFile> view(const unsigned char* bytes, std::size_t size,
                                                     std::string what);
  ~SafetensorsFile();
  SafetensorsFile(const SafetensorsFile&) = delete;
  SafetensorsFile& operator=(const SafetensorsFile&) = delete;

  const std::vector<TensorInfo>& tensors() const { return tensors_; }
  const TensorInfo* find(std::string_view name) const;
  // The tensor's bytes: data_start + info.begin, end - begin of them.
  const unsigned char* bytes(const TensorInfo& info) const { return data_ + info.begin; }
  std::size_t file_bytes() const { return size_; }
  // Lets the kernel drop the tensor's pages from this process's memory
  // (they are read back from the file if touched again): the forward pass
  // calls it on each layer it is done with, so a model streams through
  // memory a layer at a time instead of staying resident whole.
  void release(const TensorInfo& info) const;
  const std::string& what() const { return what_; }  // the file name, for messages
  // Why the file on disk is no longer what is mapped (cut short, resized or
  // rewritten by another program since it was opened), or "" when it is the same.
  std::string changed() const;

 private:
  SafetensorsFile() = default;
  void parse_header();
  std::string what_;
  const unsigned char* base_ = nullptr;  // the whole file
  std::size_t size_ = 0;
  std::unique_ptr<platform::MappedFile> mapping_;  // null for view()
  const unsigned char* data_ = nullptr;  // base_ + 8 + header length
  std::size_t data_size_ = 0;
  std::vector<TensorInfo> tensors_;
  std::unordered_map<std::string, std::size_t> by_name_;
};

}  // namespace attn::hf
