// Model folders among the paths the app is asked to open (model_folder.hpp).
#include "model/hf/model_folder.hpp"

#include <filesystem>
#include <fstream>
#include <system_error>

namespace model {

std::optional<std::string> model_folder_of(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path p(path);
  if (fs::is_directory(p, ec)) {
    if (fs::is_regular_file(p / "config.json", ec)) return p.string();
    return std::nullopt;
  }
  // A GGUF file (llama.cpp's): the model is the file itself.
  if (fs::is_regular_file(p, ec)) {
    char magic[4] = {};
    std::ifstream in(p, std::ios::binary);
    if (in.read(magic, 4) && std::string(magic, 4) == "GGUF") return p.string();
  }
  // A config.json beside weights: the folder of a model, not a scenario.
  if (p.filename() == "config.json" &&
      (fs::exists(p.parent_path() / "model.safetensors", ec) || fs::exists(p.parent_path() / "model.safetensors.index.json", ec)))
    return p.parent_path().empty() ? std::string(".") : p.parent_path().string();
  return std::nullopt;
}

std::string model_folder_name(const std::string& folder) {
  std::filesystem::path p = std::filesystem::path(folder).lexically_normal();
  if (!p.has_filename()) p = p.parent_path();
  return p.filename().empty() ? folder : p.filename().string();
}

void choose_model_folder(ModelUi& ui, const std::string& folder) {
  ui.open = true;
  if (ui.folder != folder) {
    ui.folder = folder;
    ui.heads_off.clear();
    ui.layer = 0;
    ui.heads_hidden.clear();
  }
  ui.folder_draft = folder;
}

}  // namespace model
