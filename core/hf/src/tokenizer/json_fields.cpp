// Typed reads of tokenizer.json fields (json_fields.hpp): a missing field or
// a wrong type is refused naming the file and the field's path.
#include "attn/hf/model_error.hpp"
#include "tokenizer/json_fields.hpp"

#include "json/bounded_json.hpp"

#include <limits>
#include <stdexcept>

namespace attn::hf::tokenizer_detail {

Json parse_json(std::string_view text, const std::string& file) {
  return detail::parse_bounded_json(text, file, detail::kTokenizerBounds);
}

void fail(const Where& where, const std::string& what) { throw ModelError(where.name() + " " + what); }
void fail_file(const Where& where, const std::string& what) { throw ModelError(where.file + ": " + what); }

bool has_value(const Json& obj, const char* key) {
  if (!obj.is_object()) return false;
  auto it = obj.find(key);
  return it != obj.end() && !it->is_null();
}

const Json& need(const Json& obj, const Where& where, const char* key) {
  if (!obj.is_object()) fail(where, "must be an object");
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) fail(where.at(key), "is missing");
  return *it;
}

const Json& need_object(const Json& obj, const Where& where, const char* key) {
  const Json& v = need(obj, where, key);
  if (!v.is_object()) fail(where.at(key), "must be an object");
  return v;
}

const Json& need_array(const Json& obj, const Where& where, const char* key) {
  const Json& v = need(obj, where, key);
  if (!v.is_array()) fail(where.at(key), "must be an array");
  return v;
}

std::string need_string(const Json& obj, const Where& where, const char* key) {
  const Json& v = need(obj, where, key);
  if (!v.is_string()) fail(where.at(key), "must be a string");
  return v.get<std::string>();
}

int to_id(const Json& value, const Where& where) {
  if (!value.is_number_integer()) fail(where, "must be a non-negative integer");
  if (value.is_number_unsigned()) {
    if (value.get<std::uint64_t>() > static_cast<std::uint64_t>(std::numeric_limits<int>::max() - 1))
      fail(where, "is too large for a token id");
    return static_cast<int>(value.get<std::uint64_t>());
  }
  const auto v = value.get<std::int64_t>();
  if (v < 0) fail(where, "must be a non-negative integer");
  if (v > std::numeric_limits<int>::max() - 1) fail(where, "is too large for a token id");
  return static_cast<int>(v);
}

int need_id(const Json& obj, const Where& where, const char* key) { return to_id(need(obj, where, key), where.at(key)); }

bool opt_bool(const Json& obj, const Where& where, const char* key, bool fallback) {
  if (!has_value(obj, key)) return fallback;
  const Json& v = obj.at(key);
  if (!v.is_boolean()) fail(where.at(key), "must be true or false");
  return v.get<bool>();
}

std::string opt_string(const Json& obj, const Where& where, const char* key, const std::string& fallback) {
  if (!has_value(obj, key)) return fallback;
  const Json& v = obj.at(key);
  if (!v.is_string()) fail(where.at(key), "must be a string");
  return v.get<std::string>();
}

std::string type_of(const Json& obj, const Where& where) { return need_string(obj, where, "type"); }

}  // namespace attn::hf::tokenizer_detail
