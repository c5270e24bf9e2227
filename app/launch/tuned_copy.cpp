// Dispatch to the package's tuned copy (tuned_copy.hpp). Compiled in both
// builds; it only compares paths and asks the CPU, so it runs anywhere.
#include "tuned_copy.hpp"

#include "attn/platform/child_process.hpp"
#include "attn/platform/this_program.hpp"

#include <cstdlib>
#include <filesystem>
#include <system_error>

namespace attn::launch {

namespace fs = std::filesystem;

namespace {
constexpr const char* kStartedAs = "ATTNVIZ_EXE";

}  // namespace

std::string tuned_copy_path(const std::string& exe, const std::string& level) {
  const fs::path p(exe);
  return (p.parent_path().parent_path() / "lib" / "attnviz" / level / p.filename()).lexically_normal().string();
}

bool cpu_runs(const std::string& level) {
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
  __builtin_cpu_init();
  if (level == "x86-64-v4") return __builtin_cpu_supports("x86-64-v4");
  if (level == "x86-64-v3") return __builtin_cpu_supports("x86-64-v3");
#endif
  (void)level;
  return false;
}

bool cpu_runs_tuned_code() { return cpu_runs("x86-64-v3"); }

namespace {

// ATTNVIZ_EXE as this process found it; taken out of the environment so
// that programs it starts (ffmpeg, another attnviz) do not inherit it.
const std::string& started_as() {
  static const std::string value = [] {
    const char* v = std::getenv(kStartedAs);
    std::string s = v ? v : "";
    if (v) platform::unset_environment(kStartedAs);
    return s;
  }();
  return value;
}

}  // namespace

void run_tuned_copy_if_any(char** argv) {
  if (!started_as().empty()) return;
  const std::string exe = attn::platform::this_executable();
  if (exe.empty()) return;
  for (const char* level : kTunedLevels) {
    if (!cpu_runs(level)) continue;
    const std::string copy = tuned_copy_path(exe, level);
    std::error_code ec;
    if (copy == exe || !fs::is_regular_file(copy, ec) || !platform::is_executable(copy)) continue;
    platform::set_environment(kStartedAs, exe);
    platform::replace_this_program(copy, argv);
    platform::unset_environment(kStartedAs);  // that copy would not start: try the next, or go on as this program
  }
}

const char* built_for() {
#if defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512CD__) && defined(__AVX512DQ__) && defined(__AVX512VL__)
  return "x86-64-v4";
#elif defined(__AVX2__) && defined(__FMA__)
  return "x86-64-v3";
#elif defined(__x86_64__)
  return "x86-64";
#else
  return "this processor";
#endif
}

std::string started_program() {
  if (!started_as().empty()) return started_as();
  return attn::platform::this_executable();
}

}  // namespace attn::launch
