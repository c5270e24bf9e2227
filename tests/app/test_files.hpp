// Small file helpers the model tests share (one definition, so the tests can
// be compiled together in one unity unit).
#pragma once

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace test_files {

// The whole of a file as text ("" when it cannot be read).
inline std::string read(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// The shipped default scene's text.
inline std::string builtin() { return read(std::string(ATTNVIZ_ASSETS_DIR) + "/scenarios/default.json"); }

// An empty folder of the temporary directory, made afresh for one test.
inline std::filesystem::path fresh_folder(const std::string& name) {
  const std::filesystem::path d = std::filesystem::temp_directory_path() / ("attnviz_test_" + name);
  std::filesystem::remove_all(d);
  std::filesystem::create_directories(d);
  return d;
}

}  // namespace test_files
