// Asset lookup: installed layout first (relative to the executable, so a
// package can go anywhere), then the source tree, then ./assets.
#include "model/settings/assets_dir.hpp"

#include <filesystem>
#include <system_error>

namespace model {

namespace fs = std::filesystem;

std::string find_assets_dir(const std::string& exe, const std::string& built_from) {
  std::error_code ec;
  auto holds_scenes = [&](const fs::path& dir) { return fs::is_directory(dir / "scenarios", ec); };
  if (!exe.empty()) {
    const fs::path installed = fs::path(exe).parent_path().parent_path() / "share" / "attnviz";
    if (holds_scenes(installed)) return installed.lexically_normal().string();
  }
  if (holds_scenes(built_from)) return built_from;
  return "assets";
}

}  // namespace model
