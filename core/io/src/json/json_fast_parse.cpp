// simdjson's document turned into nlohmann's (see json_fast_parse.hpp). The
// conversion mirrors what JsonDomBuilder and nlohmann's lexer would make:
// an integer that is not negative becomes nlohmann's unsigned kind and a
// negative one its signed kind, as the lexer does, and it gives up (nothing
// returned) where the two could differ or the guards would refuse: nesting
// deeper than max_depth, a duplicate key, a string over kMaxStringBytes, a
// control character in a string, an integer too big for 64 bits, and a
// negative zero, which nlohmann reads as the integer 0 from "-0" but as a
// float from "-0.0" (simdjson gives -0.0 for both).
#include "json/json_fast_parse.hpp"

#include <cmath>

#include "json/json_dom_builder.hpp"

#if defined(ATTNVIZ_HAVE_SIMDJSON)
#include <simdjson.h>
#endif

namespace attn::io::detail {

#if defined(ATTNVIZ_HAVE_SIMDJSON)

namespace {

using nlohmann::json;

bool plain_string(std::string_view s) {
  if (s.size() > kMaxStringBytes) return false;
  for (char c : s)
    if (static_cast<unsigned char>(c) < 0x20) return false;  // JSON wants them escaped: nlohmann refuses them raw
  return true;
}

// `depth`: containers around `e`. False when the nlohmann path must decide.
bool convert(simdjson::dom::element e, json& out, std::size_t depth, std::size_t max_depth) {
  using Type = simdjson::dom::element_type;
  switch (e.type()) {
    case Type::ARRAY: {
      if (depth >= max_depth) return false;
      const simdjson::dom::array items = e.get_array().value_unsafe();
      out = json::array();
      json::array_t& a = out.get_ref<json::array_t&>();
      a.reserve(items.size());
      for (simdjson::dom::element item : items) {
        a.emplace_back();
        if (!convert(item, a.back(), depth + 1, max_depth)) return false;
      }
      return true;
    }
    case Type::OBJECT: {
      if (depth >= max_depth) return false;
      const simdjson::dom::object members = e.get_object().value_unsafe();
      out = json::object();
      for (simdjson::dom::key_value_pair member : members) {
        if (!plain_string(member.key) || out.contains(member.key)) return false;
        if (!convert(member.value, out[std::string(member.key)], depth + 1, max_depth)) return false;
      }
      return true;
    }
    case Type::INT64: {
      const std::int64_t v = e.get_int64().value_unsafe();
      if (v >= 0) out = static_cast<json::number_unsigned_t>(v);  // nlohmann's kind for "12"
      else out = static_cast<json::number_integer_t>(v);
      return true;
    }
    case Type::UINT64:
      out = static_cast<json::number_unsigned_t>(e.get_uint64().value_unsafe());
      return true;
    case Type::DOUBLE: {
      const double v = e.get_double().value_unsafe();
      if (v == 0 && std::signbit(v)) return false;  // "-0" or "-0.0": the nlohmann path knows which
      out = v;
      return true;
    }
    case Type::STRING: {
      const std::string_view s = e.get_string().value_unsafe();
      if (!plain_string(s)) return false;
      out = std::string(s);
      return true;
    }
    case Type::BOOL:
      out = e.get_bool().value_unsafe();
      return true;
    case Type::NULL_VALUE:
      out = nullptr;
      return true;
  }
  return false;
}

}  // namespace

bool fast_parse_available() { return true; }

std::optional<nlohmann::json> fast_parse(const std::string& text, std::size_t max_depth) {
  const simdjson::padded_string padded(text);
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (parser.parse(padded).get(root) != simdjson::SUCCESS) return std::nullopt;
  nlohmann::json doc;
  if (!convert(root, doc, 0, max_depth)) return std::nullopt;
  return doc;
}

#else

bool fast_parse_available() { return false; }

std::optional<nlohmann::json> fast_parse(const std::string&, std::size_t) { return std::nullopt; }

#endif

}  // namespace attn::io::detail
