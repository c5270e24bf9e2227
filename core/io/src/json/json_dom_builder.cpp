// Builds a nlohmann::json document from SAX events with depth, duplicate-key
// and position tracking (see json_dom_builder.hpp). Container pointers on the
// stack stay valid because a parent only grows after its open child closes.
#include "json/json_dom_builder.hpp"

#include <utility>

#include "json/field_path.hpp"

namespace attn::io::detail {

using nlohmann::json;

json* JsonDomBuilder::add(json value) {
  if (stack_.empty()) {
    root_ = std::move(value);
    return &root_;
  }
  Frame& top = stack_.back();
  if (top.node->is_array()) {
    top.node->push_back(std::move(value));
    return &top.node->back();
  }
  json& slot = (*top.node)[top.key];
  slot = std::move(value);
  top.awaiting = false;
  return &slot;
}

bool JsonDomBuilder::open(json container) {
  if (stack_.size() >= max_depth_) {
    failure_.kind = ParseFailure::Kind::TooDeep;
    failure_.path = current_path();
    return false;  // stops the parser before anything deeper is read
  }
  json* node = add(std::move(container));
  stack_.push_back({node, {}, false});
  return true;
}

std::string JsonDomBuilder::current_path() const {
  std::string path;
  for (std::size_t i = 0; i < stack_.size(); ++i) {
    const Frame& f = stack_[i];
    const bool innermost = i + 1 == stack_.size();
    if (f.node->is_array()) {
      // Outer frames already hold the open child as their last element.
      const std::size_t n = f.node->size();
      const std::size_t index = innermost ? n : (n == 0 ? 0 : n - 1);
      path = path_index(path, index);
    } else if (!innermost || f.awaiting) {
      path = path_key(path, f.key);
    }
  }
  return path;
}

bool JsonDomBuilder::null() {
  add(nullptr);
  return true;
}

bool JsonDomBuilder::boolean(bool val) {
  add(val);
  return true;
}

bool JsonDomBuilder::number_integer(number_integer_t val) {
  add(val);
  return true;
}

bool JsonDomBuilder::number_unsigned(number_unsigned_t val) {
  add(val);
  return true;
}

bool JsonDomBuilder::number_float(number_float_t val, const string_t& /*text*/) {
  add(val);
  return true;
}

bool JsonDomBuilder::too_long(const std::string& s) {
  if (s.size() <= kMaxStringBytes) return false;
  failure_.kind = ParseFailure::Kind::TooLong;
  failure_.path = current_path();
  failure_.length = s.size();
  return true;
}

bool JsonDomBuilder::string(string_t& val) {
  if (too_long(val)) return false;
  add(std::move(val));
  return true;
}

bool JsonDomBuilder::binary(binary_t& val) {
  add(json::binary(std::move(val)));  // never produced by the JSON parser
  return true;
}

bool JsonDomBuilder::start_object(std::size_t /*elements*/) {
  return open(json::object());
}

bool JsonDomBuilder::key(string_t& val) {
  if (too_long(val)) return false;
  Frame& top = stack_.back();
  if (top.node->contains(val)) {
    top.key = val;
    top.awaiting = true;  // so the path names the repeated key
    failure_.kind = ParseFailure::Kind::DuplicateKey;
    failure_.path = current_path();
    failure_.detail = val;
    return false;
  }
  top.key = std::move(val);
  top.awaiting = true;
  return true;
}

bool JsonDomBuilder::end_object() {
  stack_.pop_back();
  return true;
}

bool JsonDomBuilder::start_array(std::size_t /*elements*/) {
  return open(json::array());
}

bool JsonDomBuilder::end_array() {
  stack_.pop_back();
  return true;
}

bool JsonDomBuilder::parse_error(std::size_t position, const std::string& last_token,
                                 const nlohmann::detail::exception& ex) {
  // nlohmann reports doubles that overflow (1e999) as out_of_range 406.
  failure_.kind = ex.id == 406 ? ParseFailure::Kind::NumberOverflow
                               : ParseFailure::Kind::Syntax;
  failure_.path = current_path();
  failure_.byte = position;
  failure_.token = last_token;
  failure_.detail = ex.what();
  return false;
}

}  // namespace attn::io::detail
