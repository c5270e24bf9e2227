// Human-friendly JSON layout for saved scenarios: objects one member per
// line, arrays of plain values (a matrix row, a label list) on one line.
// nlohmann's indent mode would put every number of a matrix on its own line.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace attn::io::detail {

std::string pretty_json(const nlohmann::json& value, int indent = 2);

}  // namespace attn::io::detail
