// The one error type commands throw: a message for stderr and an exit code.
// main() prints it as a single "attn: ..." line, so commands never write to
// stderr themselves and every failure looks the same to scripts.
#pragma once

#include <stdexcept>
#include <string>

namespace attn::cli {

// Exit codes: 0 success, 1 internal error, 2 bad input or bad usage.
constexpr int kExitOk = 0;
constexpr int kExitInternal = 1;
constexpr int kExitBadInput = 2;

struct CliError : std::runtime_error {
  explicit CliError(const std::string& message, int exit_code = kExitBadInput)
      : std::runtime_error(message), code(exit_code) {}
  int code;
};

// Collapses a message onto one line (newlines and tabs become spaces) so the
// "exactly one line on stderr" promise holds whatever a library says.
std::string one_line(const std::string& message);

}  // namespace attn::cli
