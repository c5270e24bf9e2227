#pragma once
// Typed reads of tokenizer.json fields: the shared key readers of core/io
// (attn/io/json_keys.hpp) with ModelError as what a refusal throws, so every
// wrong type or missing field becomes one error naming the file and the
// field's path ("tokenizer.json: model.vocab must be an object").
#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

#include "attn/hf/model_error.hpp"
#include "attn/io/json_keys.hpp"

namespace attn::hf::tokenizer_detail {

using Json = nlohmann::json;
using Where = io::JsonPlace<ModelError>;
using io::has_value;
using io::need;
using io::need_array;
using io::need_id;
using io::need_object;
using io::need_string;
using io::opt_bool;
using io::opt_string;
using io::to_id;

// The text as JSON; throws std::runtime_error "<file>: not valid JSON at
// byte N" (or with nlohmann's reason, e.g. a number too large for a double).
Json parse_json(std::string_view text, const std::string& file);

[[noreturn]] inline void fail(const Where& where, const std::string& what) { where.fail(what); }  // "<file>: <path> <what>"
[[noreturn]] inline void fail_file(const Where& where, const std::string& what) { where.fail_file(what); }  // "<file>: <what>"

inline std::string type_of(const Json& obj, const Where& where) { return need_string(obj, where, "type"); }  // the "type" field

}  // namespace attn::hf::tokenizer_detail
