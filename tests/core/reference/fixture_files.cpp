// Directory listing and file reading for the data-driven tests, with errors
// that name the path so a missing asset is obvious in CTest output.
#include "fixture_files.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace ref {

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

std::vector<std::string> json_files_in(const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    if (entry.is_regular_file() && entry.path().extension() == ".json") out.push_back(entry.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

std::string stem_of(const std::string& path) { return std::filesystem::path(path).stem().string(); }

RMat matrix_of(const nlohmann::json& rows) {
  RMat m;
  for (const auto& row : rows) m.push_back(row.get<std::vector<double>>());
  return m;
}

}  // namespace ref
