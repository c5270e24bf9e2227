// POSIX process runner for the CLI tests (see run_attn.hpp): popen reads
// stdout, stderr goes to a per-call file in the test's build directory.
// Arguments are single-quoted so paths with spaces survive the shell.
#include "run_attn.hpp"
#include "python_reader.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace attn::cli::test {

using attn::test::shell_quote;

namespace {

std::string unique_err_path() {
  static std::atomic<int> counter{0};
  std::filesystem::create_directories(ATTN_CLI_TEST_TMP);
  return std::string(ATTN_CLI_TEST_TMP) + "/stderr-" + std::to_string(::getpid()) + "-" +
         std::to_string(counter.fetch_add(1)) + ".txt";
}

}  // namespace

RunResult run_attn(const std::vector<std::string>& args) { return run_program(ATTN_EXE, args); }

RunResult run_program(const std::string& exe, const std::vector<std::string>& args, const std::string& env) {
  const std::string err_path = unique_err_path();
  std::string command = (env.empty() ? "" : env + " ") + shell_quote(exe);
  for (const std::string& a : args) command += " " + shell_quote(a);
  command += " 2>" + shell_quote(err_path);

  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) throw std::runtime_error("popen failed for: " + command);
  RunResult result;
  char buffer[1 << 16];
  std::size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) result.out.append(buffer, n);
  const int raw = ::pclose(pipe);
  result.status = (raw != -1 && WIFEXITED(raw)) ? WEXITSTATUS(raw) : -1;

  std::ifstream err(err_path, std::ios::binary);
  std::ostringstream text;
  text << err.rdbuf();
  result.err = text.str();
  err.close();
  std::filesystem::remove(err_path);
  return result;
}

}  // namespace attn::cli::test
