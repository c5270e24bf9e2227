// A SAX handler that builds the JSON document while guarding it.
// Unlike nlohmann's own DOM parser it refuses deep nesting before building
// anything (so "[[[[..." cannot exhaust memory or the stack later), rejects
// duplicate keys, and remembers the field path where parsing stopped.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace attn::io::detail {

// Why parsing stopped, for json_text.cpp to turn into a message.
struct ParseFailure {
  enum class Kind { None, TooDeep, DuplicateKey, Syntax, NumberOverflow, TooLong };
  Kind kind = Kind::None;
  std::string path;        // field path where it happened ("" = top level)
  std::size_t byte = 0;    // characters read when the lexer failed
  std::string token;       // the lexer's last token (already escaped)
  std::string detail;      // nlohmann's message, or the duplicate key
  std::size_t length = 0;  // TooLong: the string's size in bytes
};

// Longest string (value or key) a file may hold: a description of a few
// pages fits; a 50 MB "label" is refused before the document holds it.
constexpr std::size_t kMaxStringBytes = 64 * 1024;

class JsonDomBuilder : public nlohmann::json_sax<nlohmann::json> {
 public:
  explicit JsonDomBuilder(std::size_t max_depth) : max_depth_(max_depth) {}

  nlohmann::json& result() { return root_; }
  const ParseFailure& failure() const { return failure_; }

  bool null() override;
  bool boolean(bool val) override;
  bool number_integer(number_integer_t val) override;
  bool number_unsigned(number_unsigned_t val) override;
  bool number_float(number_float_t val, const string_t& text) override;
  bool string(string_t& val) override;
  bool binary(binary_t& val) override;
  bool start_object(std::size_t elements) override;
  bool key(string_t& val) override;
  bool end_object() override;
  bool start_array(std::size_t elements) override;
  bool end_array() override;
  bool parse_error(std::size_t position, const std::string& last_token,
                   const nlohmann::detail::exception& ex) override;

 private:
  struct Frame {
    nlohmann::json* node;
    std::string key;       // objects: the key of the latest member
    bool awaiting = false;  // objects: key read, its value not added yet
  };

  nlohmann::json* add(nlohmann::json value);
  bool open(nlohmann::json container);
  bool too_long(const std::string& s);
  std::string current_path() const;

  std::size_t max_depth_;
  nlohmann::json root_;
  std::vector<Frame> stack_;
  ParseFailure failure_;
};

}  // namespace attn::io::detail
