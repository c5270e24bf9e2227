// Scratch folders and file contents for the io tests (see temp_files.hpp).
#include "temp_files.hpp"

#include <fstream>
#include <sstream>

namespace attn::io::test {

std::filesystem::path fresh_dir(const std::string& name) {
  const std::filesystem::path dir = std::filesystem::path(ATTN_IO_TEST_TMP) / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

std::string file_text(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace attn::io::test
