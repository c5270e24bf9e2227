// Typed config.json reads with bounded quotes and noted defaults (config_reader.hpp).
#include "checkpoint/config_reader.hpp"

#include <cmath>

#include "attn/hf/model_error.hpp"
#include "json/bounded_json.hpp"

namespace attn::hf::detail {

void ConfigReader::fail(const std::string& why) const { throw ModelError("config.json: " + why); }

std::string ConfigReader::name(const char* key) const {
  return where_.empty() ? std::string("\"") + key + "\"" : where_ + "." + key;
}

void ConfigReader::refuse(const char* key, const std::string& why) const {
  const nlohmann::json* v = find(key);
  fail(name(key) + (v ? " = " + describe_json(*v) : std::string()) + ": " + why);
}

const nlohmann::json* ConfigReader::find(const char* key) const {
  auto it = c_.find(key);
  return it == c_.end() || it->is_null() ? nullptr : &*it;
}

bool ConfigReader::has(const char* key) const { return find(key) != nullptr; }

long long ConfigReader::integer(const char* key, long long lo, long long hi) const {
  const nlohmann::json* v = find(key);
  if (!v) fail(name(key) + " is missing");
  if (!v->is_number_integer()) fail(name(key) + " must be an integer, not " + describe_json(*v));
  const long long x = v->get<long long>();
  if (x < lo || x > hi)
    fail(name(key) + " = " + std::to_string(x) + " is outside " + std::to_string(lo) + ".." + std::to_string(hi));
  return x;
}

long long ConfigReader::integer_or(const char* key, long long lo, long long hi, long long fallback,
                                   const char* default_note) const {
  if (has(key)) return integer(key, lo, hi);
  if (default_note) note(std::string(key) + " is not given: " + default_note);
  return fallback;
}

double ConfigReader::positive(const char* key) const {
  const nlohmann::json* v = find(key);
  if (!v) fail(name(key) + " is missing");
  if (!v->is_number()) fail(name(key) + " must be a number, not " + describe_json(*v));
  const double x = v->get<double>();
  if (!std::isfinite(x) || x <= 0) fail(name(key) + " must be a positive number, not " + describe_json(*v));
  return x;
}

double ConfigReader::positive_or(const char* key, double fallback, const char* default_note) const {
  if (has(key)) return positive(key);
  if (default_note) note(std::string(key) + " is not given: " + default_note);
  return fallback;
}

bool ConfigReader::boolean_or(const char* key, bool fallback, const char* default_note) const {
  const nlohmann::json* v = find(key);
  if (!v) {
    if (default_note) note(std::string(key) + " is not given: " + default_note);
    return fallback;
  }
  if (!v->is_boolean()) fail(name(key) + " must be true or false, not " + describe_json(*v));
  return v->get<bool>();
}

std::string ConfigReader::string_or(const char* key, const std::string& fallback, const char* default_note) const {
  const nlohmann::json* v = find(key);
  if (!v) {
    if (default_note) note(std::string(key) + " is not given: " + default_note);
    return fallback;
  }
  if (!v->is_string()) fail(name(key) + " must be a string, not " + describe_json(*v));
  return v->get<std::string>();
}

}  // namespace attn::hf::detail
