// The running program on POSIX (attn/platform/this_program.hpp): Linux
// names the executable in /proc/self/exe; execv replaces the program.
#include "attn/platform/this_program.hpp"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <system_error>

namespace attn::platform {

std::string this_executable() {
  std::error_code ec;
  const std::filesystem::path p = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string() : p.string();
}

void replace_this_program(const std::string& path, char** argv) { ::execv(path.c_str(), argv); }

void set_environment(const std::string& name, const std::string& value) { ::setenv(name.c_str(), value.c_str(), 1); }

void unset_environment(const std::string& name) { ::unsetenv(name.c_str()); }

}  // namespace attn::platform
