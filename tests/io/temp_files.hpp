// Scratch files for the io tests: a fresh folder per test case (so CTest can
// run cases in parallel) under this build's test folder, and a file's bytes.
#pragma once

#include <filesystem>
#include <string>

namespace attn::io::test {

// An empty folder ATTN_IO_TEST_TMP/name (emptied if it was there).
std::filesystem::path fresh_dir(const std::string& name);

// The whole file, as bytes ("" when it cannot be read).
std::string file_text(const std::filesystem::path& p);

}  // namespace attn::io::test
