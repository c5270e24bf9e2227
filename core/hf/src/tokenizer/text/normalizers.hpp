#pragma once
// tokenizer.json's "normalizer": one function from text to normalized text
// (Sequence composes them). HF keeps alignments to the original text; ids
// do not need them, so plain strings suffice.
#include <functional>
#include <string>

#include "tokenizer/json_fields.hpp"
#include "tokenizer/text/regex.hpp"

namespace attn::hf::tokenizer_detail {

using Normalizer = std::function<std::string(std::string)>;

// A "pattern" field, {"String": literal} or {"Regex": pattern} (Replace, Split).
Regex pattern_regex(const Json& obj, const Where& where);

// Null JSON gives the identity. Throws on unknown types and bad fields.
Normalizer make_normalizer(const Json& config, const Where& where);

}  // namespace attn::hf::tokenizer_detail
