// Files the binary cannot run without (shaders, the default lesson scene),
// embedded at build time by cmake/embed_files.cmake so attnviz runs from any
// folder. get() returns an empty view for an unknown name.
#pragma once

#include <string_view>

namespace viz::embedded {

// Names: "grid.vert", "grid.frag", "default.json".
std::string_view get(std::string_view name);

}  // namespace viz::embedded
