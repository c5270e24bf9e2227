// Lists a model's input files (see model_files.hpp): its weights (the
// shards, or the GGUF file) and the folder's other files. Only files that
// exist are named, so an output beside them (DIR/attention.json) is fine.
#include "model/model_files.hpp"

#include <filesystem>
#include <system_error>

namespace attn::cli {

std::vector<std::string> model_files(const hf::Checkpoint& checkpoint) {
  const std::filesystem::path& dir = checkpoint.dir();
  std::vector<std::string> files;
  for (const auto& weights : checkpoint.weight_paths()) files.push_back(weights.string());
  for (const char* name : {"config.json", "model.safetensors.index.json", "tokenizer.json", "tokenizer_config.json",
                           "vocab.json", "merges.txt", "vocab.txt"}) {
    std::error_code ec;
    if (std::filesystem::exists(dir / name, ec)) files.push_back((dir / name).string());
  }
  return files;
}

}  // namespace attn::cli
