// Files the CLI tests share: a file's bytes (to show an input was left
// exactly as it was) and the committed tiny model folders.
#pragma once

#include <string>

namespace attn::cli::test {

// The whole file, byte for byte; "" when it cannot be read.
std::string file_bytes(const std::string& path);
// tests/data/hf/<name>, e.g. "gpt2".
std::string hf_model_dir(const std::string& name);

}  // namespace attn::cli::test
