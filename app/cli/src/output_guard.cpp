// Output-over-input refusal (see output_guard.hpp). Device and inode decide
// when the output exists, since a symlink or a hard link gives one file many
// names; a path that does not exist yet is compared by its canonical form.
#include "output_guard.hpp"

#include <sys/stat.h>

#include <filesystem>
#include <system_error>

#include "cli_error.hpp"

namespace attn::cli {

namespace {

bool same_file(const std::string& a, const std::string& b) {
  struct stat sa {}, sb {};
  if (::stat(a.c_str(), &sa) == 0) return ::stat(b.c_str(), &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  std::error_code ea, eb;
  const std::filesystem::path ca = std::filesystem::weakly_canonical(a, ea), cb = std::filesystem::weakly_canonical(b, eb);
  return !ea && !eb && ca == cb;
}

}  // namespace

void refuse_output_over_input(const std::string& option, const std::string& output,
                              const std::vector<std::string>& inputs) {
  for (const std::string& input : inputs) {
    if (input.empty() || !same_file(output, input)) continue;
    const std::string which = output == input ? "" : " " + input + " (under another name)";
    throw CliError(option + ": " + output + " is the input file" + which +
                   "; writing it would replace the input, so nothing was written (choose another output file)");
  }
}

}  // namespace attn::cli
