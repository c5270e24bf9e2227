#pragma once
// A Hugging Face model folder: config.json, and model.safetensors or the
// shards named by model.safetensors.index.json. Tensors are found by name
// across shards and read straight from the mappings.
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "attn/hf/checkpoint/model_config.hpp"
#include "attn/hf/safetensors/safetensors.hpp"

namespace attn::hf {

struct TensorRef {
  const TensorInfo* info = nullptr;
  const SafetensorsFile* file = nullptr;
  const unsigned char* bytes() const { return file->bytes(*info); }
};

class Checkpoint {
 public:
  // Throws ModelError: no config.json, an unknown model_type, absurd sizes,
  // no weights file, a shard the index names that is missing or outside the
  // folder, or a damaged safetensors file.
  static std::shared_ptr<const Checkpoint> open(const std::filesystem::path& dir);

  const ModelConfig& config() const { return config_; }
  const std::filesystem::path& dir() const { return dir_; }
  std::size_t weight_bytes() const;  // all shards' sizes
  // Throws ModelError when a weights file changed on disk since it was
  // opened (cut short, resized, rewritten): a pass that read it is refused.
  void check_unchanged() const;
  // Why a weights file is no longer what was opened, or "" (the first one found).
  std::string changed() const;
  const std::vector<std::shared_ptr<const SafetensorsFile>>& files() const { return files_; }

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
};

std::string shape_text(const std::vector<std::int64_t>& shape);

}  // namespace attn::hf
