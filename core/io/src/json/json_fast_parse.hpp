// Large files read with simdjson, which parses an 85 MB, 2048-token scene in
// about a seventh of the time nlohmann's lexer takes (0.14 s against 1.0 s
// here), most of which went on reading numbers. Only plainly valid text
// within the same guards is taken this way (depth, key and string limits,
// no duplicate keys); anything else returns nothing and goes through the
// nlohmann path (json_text.cpp), which phrases the error. The document it
// returns is the one that path would build, value for value and type for
// type (tests/io/test_fast_parse.cpp compares them over every file the
// tests have).
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace attn::io::detail {

// True when this build has simdjson (Debian's libsimdjson-dev).
bool fast_parse_available();

std::optional<nlohmann::json> fast_parse(const std::string& text, std::size_t max_depth);

}  // namespace attn::io::detail
