// The one check every command that writes a file makes before it reads or
// writes anything: the output must not be one of its inputs. `attn export
// s.json -o s.json` used to replace the scenario with its trace and exit 0.
#pragma once

#include <string>
#include <vector>

namespace attn::cli {

// Throws CliError (exit 2) naming `option` when `output` is the same file
// as one of `inputs`: the same name, or another name for it (a symlink or a
// hard link; compared by device and inode when the output exists, else by
// canonical path).
void refuse_output_over_input(const std::string& option, const std::string& output,
                              const std::vector<std::string>& inputs);

}  // namespace attn::cli
