// The "format" / "version" pair every attnviz file starts with. One checker
// so scenario and model files word a wrong or missing header the same way,
// and each names the other when a user mixes them up.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace attn::io::detail {

// Throws FormatError unless doc["format"] == format and doc["version"] is
// `version` (1.0 is accepted for 1). `what` names the expected kind of file
// in messages ("scenario", "model").
// `version` is the newest this build reads; `oldest` (0: the same) the
// oldest, for a format that grew (scenarios: 2 added modern attention).
// Returns the file's version.
int check_format_header(const nlohmann::json& doc, const char* format, int version, const char* what, int oldest = 0);

}  // namespace attn::io::detail
