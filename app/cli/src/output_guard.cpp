// Output-over-input refusal (see output_guard.hpp); attn::io::same_file
// knows a file by any of its names.
#include "output_guard.hpp"

#include "attn/io/text_file.hpp"
#include "cli_error.hpp"

namespace attn::cli {

void refuse_output_over_input(const std::string& option, const std::string& output,
                              const std::vector<std::string>& inputs) {
  for (const std::string& input : inputs) {
    if (input.empty() || !attn::io::same_file(output, input)) continue;
    const std::string which = output == input ? "" : " " + input + " (under another name)";
    throw CliError(option + ": " + output + " is the input file" + which +
                   "; writing it would replace the input, so nothing was written (choose another output file)");
  }
}

}  // namespace attn::cli
