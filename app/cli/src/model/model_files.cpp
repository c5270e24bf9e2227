// The files a model folder is read from (model_files.hpp).
#include "model/model_files.hpp"

namespace attn::cli {

std::vector<std::string> model_files(const hf::Checkpoint& ck) {
  std::vector<std::string> files;
  for (const char* name : {"config.json", "tokenizer.json", "tokenizer_config.json", "special_tokens_map.json",
                           "vocab.json", "merges.txt", "vocab.txt", "model.safetensors.index.json", "generation_config.json"})
    files.push_back((ck.dir() / name).string());
  for (const auto& f : ck.files()) files.push_back((ck.dir() / f->what()).string());
  return files;
}

}  // namespace attn::cli
