// Where attnviz finds the scenes and lessons it ships. An installed copy
// keeps them in <prefix>/share/attnviz next to <prefix>/bin/attnviz, so the
// folder is found from the executable's own path first; a build run from
// the source tree falls back to the source folder it was built from.
#pragma once

#include <string>

namespace model {

// `exe` is the program's path ("" when unknown: see
// attn::launch::started_program); `built_from`
// the source tree's assets folder. Returns the first that holds scenarios.
std::string find_assets_dir(const std::string& exe, const std::string& built_from);

}  // namespace model
