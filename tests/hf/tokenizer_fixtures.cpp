// Reading the committed tokenizer fixtures (tokenizer_fixtures.hpp).
#include "tokenizer_fixtures.hpp"

#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace hf_test {

std::filesystem::path tokenizer_dir(const std::string& name) {
  return std::filesystem::path(ATTN_TOKENIZER_DATA_DIR) / name;
}

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path.string());
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

const Expected& expected() {
  static const Expected e = [] {
    Expected x;
    x.json_text = read_text(tokenizer_dir("expected_ids.json"));
    const auto j = nlohmann::json::parse(x.json_text);
    x.texts = j.at("texts").get<std::vector<std::string>>();
    return x;
  }();
  return e;
}

std::vector<std::vector<int>> Expected::ids_for(const std::string& name) const {
  return nlohmann::json::parse(json_text).at("ids").at(name).get<std::vector<std::vector<int>>>();
}

static std::string list(const std::vector<int>& ids) {
  std::string s = "[";
  for (std::size_t i = 0; i < ids.size(); ++i) s += (i ? ", " : "") + std::to_string(ids[i]);
  return s + "]";
}

std::string describe_mismatch(const std::string& text, const std::vector<int>& want, const std::vector<int>& got) {
  if (want == got) return {};
  std::size_t first = 0;
  while (first < want.size() && first < got.size() && want[first] == got[first]) ++first;
  return "text: \"" + text + "\"\n  expected: " + list(want) + "\n  actual:   " + list(got) +
         "\n  first difference at index " + std::to_string(first);
}

}  // namespace hf_test
