// Dispatch to the package's tuned copy (tuned_copy.hpp). Compiled in both
// builds; it only compares paths and asks the CPU, so it runs anywhere.
#include "tuned_copy.hpp"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <system_error>

namespace attn::launch {

namespace fs = std::filesystem;

namespace {
constexpr const char* kStartedAs = "ATTNVIZ_EXE";

std::string own_executable() {
  std::error_code ec;
  const fs::path p = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string() : p.string();
}
}  // namespace

std::string tuned_copy_path(const std::string& exe) {
  const fs::path p(exe);
  return (p.parent_path().parent_path() / "lib" / "attnviz" / "x86-64-v3" / p.filename()).lexically_normal().string();
}

bool cpu_runs_tuned_code() {
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
  __builtin_cpu_init();
  return __builtin_cpu_supports("x86-64-v3");
#else
  return false;
#endif
}

namespace {

// ATTNVIZ_EXE as this process found it; taken out of the environment so
// that programs it starts (ffmpeg, another attnviz) do not inherit it.
const std::string& started_as() {
  static const std::string value = [] {
    const char* v = std::getenv(kStartedAs);
    std::string s = v ? v : "";
    if (v) unsetenv(kStartedAs);
    return s;
  }();
  return value;
}

}  // namespace

void run_tuned_copy_if_any(char** argv) {
  if (!started_as().empty() || !cpu_runs_tuned_code()) return;
  const std::string exe = own_executable();
  if (exe.empty()) return;
  const std::string copy = tuned_copy_path(exe);
  std::error_code ec;
  if (copy == exe || !fs::is_regular_file(copy, ec) || access(copy.c_str(), X_OK) != 0) return;
  setenv(kStartedAs, exe.c_str(), 1);
  execv(copy.c_str(), argv);
  unsetenv(kStartedAs);  // the copy would not start: go on as this program
}

const char* built_for() {
#if defined(__AVX2__) && defined(__FMA__)
  return "x86-64-v3";
#elif defined(__x86_64__)
  return "x86-64";
#else
  return "this processor";
#endif
}

std::string started_program() {
  if (!started_as().empty()) return started_as();
  return own_executable();
}

}  // namespace attn::launch
