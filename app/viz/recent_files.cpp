// Recent files persistence; failures are silent (the list is a convenience).
#include "recent_files.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <system_error>

namespace viz {

std::string recent_files_path() {
  namespace fs = std::filesystem;
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg) return (fs::path(xdg) / "attnviz" / "recent.txt").string();
  if (const char* home = std::getenv("HOME"); home && *home) return (fs::path(home) / ".config" / "attnviz" / "recent.txt").string();
  return {};
}

std::vector<std::string> load_recent_files(const std::string& path) {
  std::vector<std::string> out;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line) && out.size() < 8;)
    if (!line.empty()) out.push_back(line);
  return out;
}

void save_recent_files(const std::string& path, const std::vector<std::string>& files) {
  if (path.empty()) return;
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
  std::ofstream out(path);
  for (const std::string& f : files) out << f << "\n";
}

}  // namespace viz
