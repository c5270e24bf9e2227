// Turns file text into a JSON document, or one clear FormatError.
// Wraps nlohmann's parser with the guards untrusted files need (encoding,
// nesting depth, duplicate keys) and rewrites its errors for people.
#pragma once

#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

#include "files/file_kind.hpp"

namespace attn::io::detail {

// Deepest nesting accepted; scenario files need 5 levels, app data a few more.
constexpr std::size_t kMaxJsonDepth = 32;

// `kind` names the file in messages ("file is empty; expected a JSON lesson object").
nlohmann::json parse_json_text(const std::string& text, const FileKind& kind,
                               std::size_t max_depth = kMaxJsonDepth);

// The same through nlohmann alone (what parse_json_text does when simdjson
// declines the text), for the tests that compare the two paths.
nlohmann::json parse_json_text_with_nlohmann(const std::string& text, const FileKind& kind,
                                            std::size_t max_depth = kMaxJsonDepth);

}  // namespace attn::io::detail
