#pragma once
// The committed tiny tokenizers and the ids the JavaScript port of HF
// tokenizers gives for them (tests/data/tokenizers/expected_ids.json).
#include <filesystem>
#include <string>
#include <vector>

#include "attn/hf/tokenizer/tokenizer.hpp"

namespace hf_test {

std::filesystem::path tokenizer_dir(const std::string& name);
std::string read_text(const std::filesystem::path& path);

struct Expected {
  std::vector<std::string> texts;
  // ids[name][i] for texts[i]
  std::vector<std::vector<int>> ids_for(const std::string& name) const;
  std::string json_text;
};
const Expected& expected();

// "" when equal, else the text, both id lists and the first differing index.
std::string describe_mismatch(const std::string& text, const std::vector<int>& want, const std::vector<int>& got);

}  // namespace hf_test
