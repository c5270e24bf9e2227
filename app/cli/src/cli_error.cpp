// Message clean-up for stderr (see cli_error.hpp). Trailing whitespace is
// dropped too, so the printed line ends exactly where the message does.
#include "cli_error.hpp"

namespace attn::cli {

std::string one_line(const std::string& message) {
  std::string out;
  out.reserve(message.size());
  for (char c : message) {
    const bool space = c == '\n' || c == '\r' || c == '\t';
    if (space && (out.empty() || out.back() == ' ')) continue;
    out += space ? ' ' : c;
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

}  // namespace attn::cli
