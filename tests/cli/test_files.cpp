// See test_files.hpp.
#include "test_files.hpp"

#include <fstream>
#include <sstream>

namespace attn::cli::test {

std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string hf_model_dir(const std::string& name) { return std::string(ATTN_CLI_DATA_DIR) + "/../../data/hf/" + name; }

}  // namespace attn::cli::test
