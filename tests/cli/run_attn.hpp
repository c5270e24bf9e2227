// Runs the real `attn` binary (path baked in at build time, never looked up
// relative to the working directory) and captures exit status, stdout and
// stderr, so tests see exactly what a user or a script would.
#pragma once

#include <string>
#include <vector>

namespace attn::cli::test {

struct RunResult {
  int status = -1;  // exit status; -1 when it did not exit normally
  std::string out;
  std::string err;
};

RunResult run_attn(const std::vector<std::string>& args);
// Any program, with `env` (NAME=value words, may be empty) before it on the shell's line.
RunResult run_program(const std::string& exe, const std::vector<std::string>& args, const std::string& env = "");

}  // namespace attn::cli::test
