#pragma once
// JSON from a model folder, parsed with limits on nesting and size. A hostile
// file of 100,000 nested "[" used to overflow the stack where a message
// printed the value, and each level of a deep normalizer cost memory in
// proportion to the depth below it; 12 million empty objects took 1.2 GB.
// Real files are shallow (tokenizer.json nests 6 levels at most) and a
// tokenizer of 262,000 tokens holds about 1.5 million values, so the limits
// refuse only what no checkpoint writes, before it is built.
#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <string_view>

namespace attn::hf::detail {

struct JsonBounds {
  int max_depth = 32;                   // arrays and objects inside each other
  std::size_t max_values = 1'000'000;  // every value, containers included
};

// config.json, the shard index, a safetensors header; tokenizer.json.
inline constexpr JsonBounds kSmallFileBounds{32, 1'000'000};
inline constexpr JsonBounds kTokenizerBounds{64, 4'000'000};

// The text as JSON, or ModelError "<file>: ..." naming the byte where the
// syntax fails, the depth or the count exceeded.
nlohmann::json parse_bounded_json(std::string_view text, const std::string& file, const JsonBounds& bounds);

// A value as a message quotes it, never longer than a line and never by
// recursion: a string quoted, its first 40 characters, "an array of 3 entries", a number.
std::string describe_json(const nlohmann::json& v);

}  // namespace attn::hf::detail
