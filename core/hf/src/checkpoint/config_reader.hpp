#pragma once
// Typed reads of config.json's keys, each failure one line naming the key
// and quoting a bounded excerpt of the value. A key that changes the math
// but is absent takes the family's default, and the reader says so: the
// notes reach `attn model info` and the Model view, so no default is taken
// without a word.
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace attn::hf::detail {

class ConfigReader {
 public:
  ConfigReader(const nlohmann::json& object, std::string where, std::vector<std::string>& notes)
      : c_(object), where_(std::move(where)), notes_(notes) {}

  [[noreturn]] void fail(const std::string& why) const;
  [[noreturn]] void refuse(const char* key, const std::string& why) const;  // "\"key\" = value: why"

  bool has(const char* key) const;  // present and not null
  const nlohmann::json& at(const char* key) const { return c_.at(key); }
  const nlohmann::json& json() const { return c_; }

  // Required: a missing key fails. With `fallback`, a missing key takes it
  // and, when `default_note` is set, adds "<key> is not given: <note>".
  long long integer(const char* key, long long lo, long long hi) const;
  long long integer_or(const char* key, long long lo, long long hi, long long fallback, const char* default_note = nullptr) const;
  double positive_or(const char* key, double fallback, const char* default_note = nullptr) const;
  double positive(const char* key) const;  // required
  bool boolean_or(const char* key, bool fallback, const char* default_note = nullptr) const;
  std::string string_or(const char* key, const std::string& fallback, const char* default_note = nullptr) const;

  void note(const std::string& text) const { notes_.push_back(text); }

 private:
  const nlohmann::json* find(const char* key) const;
  std::string name(const char* key) const;  // "\"key\"" or "rope_parameters.key"

  const nlohmann::json& c_;
  std::string where_;  // "" for the top level, "rope_parameters" inside it
  std::vector<std::string>& notes_;
};

}  // namespace attn::hf::detail
