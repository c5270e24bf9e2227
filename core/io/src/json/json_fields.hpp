// Typed readers for the pieces of a scenario file: matrices, vectors,
// labels, flags and named choices. Each checks its own field (type, shape,
// finiteness, size limits) and throws FormatError naming the exact path, so
// the scenario parser reads like a list of fields.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "attn/base/matrix.hpp"

namespace attn::io::detail {

// Short description of a JSON value for "got ..." in messages,
// e.g. `string "abc"`, `number 3`, `an object`.
std::string describe(const nlohmann::json& v);

// An (rows, cols) array of finite numbers. The size limits are checked
// before anything is copied so absurd files are refused cheaply.
Mat read_matrix(const nlohmann::json& j, const std::string& path,
                long long max_rows, long long max_cols);

// An (rows, cols) array of 0/1/true/false flags.
BoolMat read_flag_matrix(const nlohmann::json& j, const std::string& path,
                         long long max_rows, long long max_cols);

// A non-empty array of finite numbers.
Vec read_vector(const nlohmann::json& j, const std::string& path, long long max_len);

// An array of 0/1/true/false flags.
std::vector<bool> read_flags(const nlohmann::json& j, const std::string& path,
                             long long max_len);

// Longest token label, in characters: a word or a short phrase, never a page.
constexpr std::size_t kMaxLabelChars = 256;
std::size_t code_points(const std::string& utf8);

// An array of strings, each at most kMaxLabelChars characters.
std::vector<std::string> read_labels(const nlohmann::json& j, const std::string& path,
                                     long long max_len);

std::string read_string(const nlohmann::json& j, const std::string& path);

// A string naming one of `choices`; the message lists them all.
template <typename E>
E read_choice(const nlohmann::json& j, const std::string& path,
              std::initializer_list<std::pair<const char*, E>> choices);

// Every key of obj must be one of `known`; otherwise throws naming the
// first stranger and listing the keys allowed (a misspelt setting would
// otherwise be silently replaced by its default).
void only_keys(const nlohmann::json& obj, const std::string& path, std::initializer_list<const char*> known);

// A whole number from lo to hi (1 and 1.0 alike); a finite number.
int read_int(const nlohmann::json& j, const std::string& path, int lo, int hi);
double read_number(const nlohmann::json& j, const std::string& path);

// "\"a\", \"b\" or \"c\"" for messages.
std::string list_choices(const std::vector<std::string>& names);

// Throws the "unknown value" / "expected a string" error for read_choice.
[[noreturn]] void throw_bad_choice(const nlohmann::json& j, const std::string& path,
                                   const std::vector<std::string>& names);

template <typename E>
E read_choice(const nlohmann::json& j, const std::string& path,
              std::initializer_list<std::pair<const char*, E>> choices) {
  if (j.is_string()) {
    const auto& s = j.get_ref<const std::string&>();
    for (const auto& [name, value] : choices) {
      if (s == name) return value;
    }
  }
  std::vector<std::string> names;
  for (const auto& choice : choices) names.emplace_back(choice.first);
  throw_bad_choice(j, path, names);
}

}  // namespace attn::io::detail
