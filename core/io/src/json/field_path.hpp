// Field paths used in every error message, e.g. "heads[1].w_k" or "x[2][0]".
// One helper so all messages spell paths the same way users see them in JSON.
#pragma once

#include <cstddef>
#include <string>

namespace attn::io::detail {

// "parent.key" (or just "key" at the top); keys that are not plain
// identifiers are quoted: parent["my key"].
std::string path_key(const std::string& parent, const std::string& key);

// "parent[i]".
std::string path_index(const std::string& parent, std::size_t i);

}  // namespace attn::io::detail
