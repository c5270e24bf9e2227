// The running program itself: where its executable is, its environment,
// and replacing it with another build of itself (the launcher's tuned
// copies, app/launch).
#pragma once

#include <string>

namespace attn::platform {

// The running executable's path; empty where it cannot be known.
std::string this_executable();

// Runs `path` in place of this program with the same arguments (argv as
// main received it). Returns only when that program could not be started.
void replace_this_program(const std::string& path, char** argv);

// Sets or removes a variable in this program's environment (inherited by
// the programs it starts).
void set_environment(const std::string& name, const std::string& value);
void unset_environment(const std::string& name);

}  // namespace attn::platform
