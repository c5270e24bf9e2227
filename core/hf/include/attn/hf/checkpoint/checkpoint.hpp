#pragma once
// A model on disk: a Hugging Face folder (config.json, and model.safetensors
// or the shards named by model.safetensors.index.json), or one GGUF file
// (llama.cpp's: the settings in its metadata, the weights in ggml's types).
// Tensors are found by their Hugging Face name and read straight from the
// mappings.
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "attn/hf/checkpoint/model_config.hpp"
#include "attn/hf/gguf/gguf_file.hpp"
#include "attn/hf/safetensors/safetensors.hpp"

namespace attn::hf {

// A tensor and the file it lies in: a safetensors shard, or a GGUF file
// (whose tensors the checkpoint names as the family's safetensors would).
struct TensorRef {
  const TensorInfo* info = nullptr;
  const SafetensorsFile* file = nullptr;
  const GgufFile* gguf = nullptr;
  const unsigned char* bytes() const;
  void release() const;  // lets the kernel drop its pages
};

class Checkpoint {
 public:
  // Throws ModelError: no config.json, an unknown model_type, absurd sizes,
  // no weights file, a shard the index names that is missing or outside the
  // folder, or a damaged safetensors file. A path to a file opens it as GGUF
  // (open_gguf).
  static std::shared_ptr<const Checkpoint> open(const std::filesystem::path& dir);
  // Throws ModelError: a damaged GGUF file, an architecture attnviz does not
  // run (named), settings missing from the metadata, a tensor missing or of
  // a type attnviz does not read (named, with the tensor).
  static std::shared_ptr<const Checkpoint> open_gguf(const std::filesystem::path& file);

  const ModelConfig& config() const { return config_; }
  const std::filesystem::path& dir() const { return dir_; }
  std::size_t weight_bytes() const;  // all shards' sizes
  // Throws ModelError when a weights file changed on disk since it was
  // opened (cut short, resized, rewritten): a pass that read it is refused.
  void check_unchanged() const;
  // Why a weights file is no longer what was opened, or "" (the first one found).
  std::string changed() const;
  const std::vector<std::shared_ptr<const SafetensorsFile>>& files() const { return files_; }  // empty for GGUF
  const GgufFile* gguf() const { return gguf_.get(); }  // null for a folder
  // Every tensor as the files store it, for `attn model info` and the Model
  // view: its name there, its type ("BF16", "Q4_K"), weights and bytes.
  struct StoredTensor {
    std::string name, type;
    std::uint64_t elements = 0, bytes = 0;
    std::size_t dims = 0;  // 1: a norm or bias; 2: a weight matrix
  };
  std::vector<StoredTensor> stored_tensors() const;
  // The files holding the weights: the shards, or the GGUF file.
  std::vector<std::filesystem::path> weight_paths() const;

  // The tensor `name`, also tried with the family's optional prefixes
  // ("transformer.", "bert.", "model."). Throws ModelError naming it when
  // absent, when its dtype cannot be computed with, or when its shape is not
  // `shape` ("h.0.attn.c_attn.weight: shape [32, 96], config.json says [32, 64]").
  TensorRef tensor(const std::string& name, const std::vector<std::int64_t>& shape) const;
  // The tensor if present (any of the prefixes), else nullptr info.
  TensorRef find(const std::string& name) const;

 private:
  std::filesystem::path dir_;
  ModelConfig config_;
  std::vector<std::shared_ptr<const SafetensorsFile>> files_;
  std::map<std::string, std::size_t> owner_;  // the index's shard (in files_) of each tensor it names
  std::shared_ptr<const GgufFile> gguf_;
  std::map<std::string, TensorInfo> gguf_tensors_;  // by Hugging Face name; begin/end in the GGUF's data
};

std::string shape_text(const std::vector<std::int64_t>& shape);

}  // namespace attn::hf
