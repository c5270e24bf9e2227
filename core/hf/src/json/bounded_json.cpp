// JSON parsed through nlohmann's parser callback, which sees each value as it
// is read, so a limit is hit before anything past it is built (bounded_json.hpp).
#include "json/bounded_json.hpp"

#include "attn/hf/model_error.hpp"
#include "attn/io/excerpt.hpp"

namespace attn::hf::detail {

namespace {

// Raised inside nlohmann's parser callback, which runs as each value is
// read, so nothing past the limit is ever allocated.
struct LimitReached {
  std::string why;
};

}  // namespace

nlohmann::json parse_bounded_json(std::string_view text, const std::string& file, const JsonBounds& bounds) {
  std::size_t values = 0;
  const nlohmann::json::parser_callback_t guard = [&](int depth, nlohmann::json::parse_event_t event, nlohmann::json&) {
    using E = nlohmann::json::parse_event_t;
    if ((event == E::object_start || event == E::array_start) && depth >= bounds.max_depth)
      throw LimitReached{"nested deeper than " + std::to_string(bounds.max_depth) +
                         " levels of arrays and objects (no model file needs that many)"};
    if (event == E::value || event == E::object_start || event == E::array_start) {
      if (++values > bounds.max_values)
        throw LimitReached{"more than " + io::with_thousands(bounds.max_values) + " values (no model file needs that many)"};
    }
    return true;
  };
  try {
    return nlohmann::json::parse(text.begin(), text.end(), guard);
  } catch (const LimitReached& e) {
    throw ModelError(file + ": " + e.why);
  } catch (const nlohmann::json::parse_error& e) {
    throw ModelError(file + ": not valid JSON at byte " + std::to_string(e.byte));
  } catch (const nlohmann::json::exception& e) {
    // out_of_range.406: a number such as 1e400 that no double holds.
    const std::string what = e.what();
    throw ModelError(file + ": not valid JSON (" +
                     (e.id == 406 ? std::string("a number is too large for a double") : what) + ")");
  }
}

std::string describe_json(const nlohmann::json& v) {
  switch (v.type()) {
    case nlohmann::json::value_t::null: return "null";
    case nlohmann::json::value_t::boolean: return v.get<bool>() ? "true" : "false";
    case nlohmann::json::value_t::string: return io::quoted_excerpt(v.get_ref<const std::string&>());
    case nlohmann::json::value_t::number_integer:
    case nlohmann::json::value_t::number_unsigned:
    case nlohmann::json::value_t::number_float: return v.dump();
    case nlohmann::json::value_t::array:
      return v.empty() ? "an empty array" : "an array of " + io::with_thousands(v.size()) + (v.size() == 1 ? " entry" : " entries");
    case nlohmann::json::value_t::object: return v.empty() ? "an empty object" : "an object";
    default: return "a value of another kind";
  }
}

}  // namespace attn::hf::detail
