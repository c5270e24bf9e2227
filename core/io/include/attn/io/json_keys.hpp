// Typed reads of a JSON object's keys, for every library that reads a JSON
// file (the tokenizer's tokenizer.json, io's files): a missing key or a
// wrong type becomes one exception naming the file and the key's path
// ("tokenizer.json: model.vocab must be an object"). One set of readers, so
// each check and its wording is written once; the exception type is the
// caller's (attn::hf throws its ModelError), hence a template.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>

#include <nlohmann/json.hpp>

namespace attn::io {

// Where a value sits: the file and the path inside it. Error is what a
// refusal throws, built from the whole message.
template <class Error>
struct JsonPlace {
  std::string file;  // "tokenizer.json"
  std::string path;  // "model", "pre_tokenizer.pretokenizers[1]"
  JsonPlace at(const std::string& key) const { return {file, path.empty() ? key : path + "." + key}; }
  JsonPlace index(std::size_t i) const { return {file, path + "[" + std::to_string(i) + "]"}; }
  std::string name() const { return file + ": " + (path.empty() ? std::string("top level") : path); }
  [[noreturn]] void fail(const std::string& what) const { throw Error(name() + " " + what); }        // "<file>: <path> <what>"
  [[noreturn]] void fail_file(const std::string& what) const { throw Error(file + ": " + what); }  // "<file>: <what>"
};

// Present and not null: a null reads as missing, as the published
// tokenizers write an absent part.
inline bool has_value(const nlohmann::json& obj, const char* key) {
  if (!obj.is_object()) return false;
  auto it = obj.find(key);
  return it != obj.end() && !it->is_null();
}

template <class Error>
const nlohmann::json& need(const nlohmann::json& obj, const JsonPlace<Error>& where, const char* key) {
  if (!obj.is_object()) where.fail("must be an object");
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) where.at(key).fail("is missing");
  return *it;
}

template <class Error>
const nlohmann::json& need_object(const nlohmann::json& obj, const JsonPlace<Error>& where, const char* key) {
  const nlohmann::json& v = need(obj, where, key);
  if (!v.is_object()) where.at(key).fail("must be an object");
  return v;
}

template <class Error>
const nlohmann::json& need_array(const nlohmann::json& obj, const JsonPlace<Error>& where, const char* key) {
  const nlohmann::json& v = need(obj, where, key);
  if (!v.is_array()) where.at(key).fail("must be an array");
  return v;
}

template <class Error>
std::string need_string(const nlohmann::json& obj, const JsonPlace<Error>& where, const char* key) {
  const nlohmann::json& v = need(obj, where, key);
  if (!v.is_string()) where.at(key).fail("must be a string");
  return v.get<std::string>();
}

// A non-negative integer below 2^31 − 1 (a token id, a count).
template <class Error>
int to_id(const nlohmann::json& value, const JsonPlace<Error>& where) {
  if (!value.is_number_integer()) where.fail("must be a non-negative integer");
  if (value.is_number_unsigned()) {
    if (value.get<std::uint64_t>() > static_cast<std::uint64_t>(std::numeric_limits<int>::max() - 1))
      where.fail("is too large for a token id");
    return static_cast<int>(value.get<std::uint64_t>());
  }
  const auto v = value.get<std::int64_t>();
  if (v < 0) where.fail("must be a non-negative integer");
  if (v > std::numeric_limits<int>::max() - 1) where.fail("is too large for a token id");
  return static_cast<int>(v);
}

template <class Error>
int need_id(const nlohmann::json& obj, const JsonPlace<Error>& where, const char* key) {
  return to_id(need(obj, where, key), where.at(key));
}

// Missing or null gives the fallback; any other type than the expected fails.
template <class Error>
bool opt_bool(const nlohmann::json& obj, const JsonPlace<Error>& where, const char* key, bool fallback) {
  if (!has_value(obj, key)) return fallback;
  const nlohmann::json& v = obj.at(key);
  if (!v.is_boolean()) where.at(key).fail("must be true or false");
  return v.get<bool>();
}

template <class Error>
std::string opt_string(const nlohmann::json& obj, const JsonPlace<Error>& where, const char* key,
                       const std::string& fallback) {
  if (!has_value(obj, key)) return fallback;
  const nlohmann::json& v = obj.at(key);
  if (!v.is_string()) where.at(key).fail("must be a string");
  return v.get<std::string>();
}

}  // namespace attn::io
