// Writes JSON with rows on one line (see json_pretty.hpp). Scalars go through
// nlohmann's dump so numbers keep full round-trip precision and strings stay
// correctly escaped.
#include "json/json_pretty.hpp"

namespace attn::io::detail {

using nlohmann::json;

namespace {

bool is_flat_array(const json& v) {
  if (!v.is_array()) return false;
  for (const json& e : v) {
    if (e.is_structured()) return false;
  }
  return true;
}

void write(const json& v, int indent, int depth, std::string& out) {
  const std::string pad(static_cast<std::size_t>(indent * (depth + 1)), ' ');
  const std::string close_pad(static_cast<std::size_t>(indent * depth), ' ');
  if (v.is_object() && !v.empty()) {
    out += "{\n";
    bool first = true;
    for (auto it = v.begin(); it != v.end(); ++it) {
      if (!first) out += ",\n";
      first = false;
      out += pad + json(it.key()).dump() + ": ";
      write(it.value(), indent, depth + 1, out);
    }
    out += "\n" + close_pad + "}";
  } else if (v.is_array() && !v.empty() && !is_flat_array(v)) {
    out += "[\n";
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (i > 0) out += ",\n";
      out += pad;
      write(v[i], indent, depth + 1, out);
    }
    out += "\n" + close_pad + "]";
  } else if (v.is_array() && !v.empty()) {
    out += "[";
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (i > 0) out += ", ";
      out += v[i].dump();
    }
    out += "]";
  } else {
    out += v.dump();
  }
}

}  // namespace

std::string pretty_json(const json& value, int indent) {
  std::string out;
  write(value, indent, 0, out);
  out += "\n";
  return out;
}

}  // namespace attn::io::detail
