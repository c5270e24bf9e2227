#pragma once
// Typed reads of tokenizer.json fields: every wrong type or missing field
// becomes one std::runtime_error naming the file and the field's path
// ("tokenizer.json: model.vocab must be an object").
#include <nlohmann/json.hpp>

#include <string>

namespace attn::hf::tokenizer_detail {

using Json = nlohmann::json;

struct Where {
  std::string file;  // "tokenizer.json"
  std::string path;  // "model", "pre_tokenizer.pretokenizers[1]"
  Where at(const std::string& key) const { return {file, path.empty() ? key : path + "." + key}; }
  Where index(std::size_t i) const { return {file, path + "[" + std::to_string(i) + "]"}; }
  std::string name() const { return file + ": " + (path.empty() ? std::string("top level") : path); }
};

[[noreturn]] void fail(const Where& where, const std::string& what);  // "<file>: <path> <what>"
[[noreturn]] void fail_file(const Where& where, const std::string& what);  // "<file>: <what>"

const Json& need(const Json& obj, const Where& where, const char* key);  // present, any type
const Json& need_object(const Json& obj, const Where& where, const char* key);
const Json& need_array(const Json& obj, const Where& where, const char* key);
std::string need_string(const Json& obj, const Where& where, const char* key);
int need_id(const Json& obj, const Where& where, const char* key);
// Missing or null gives the default; any other type than the expected fails.
bool opt_bool(const Json& obj, const Where& where, const char* key, bool fallback);
std::string opt_string(const Json& obj, const Where& where, const char* key, const std::string& fallback);
bool has_value(const Json& obj, const char* key);
int to_id(const Json& value, const Where& where);  // a non-negative integer below 2^31
std::string type_of(const Json& obj, const Where& where);  // the "type" field

}  // namespace attn::hf::tokenizer_detail
