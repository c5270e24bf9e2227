// Header checks shared by the file formats (see format_header.hpp).
#include "json/format_header.hpp"

#include <cmath>

#include "attn/io/scenario_file.hpp"
#include "json/json_fields.hpp"

namespace attn::io::detail {

using nlohmann::json;

namespace {

[[noreturn]] void fail(const std::string& path, const std::string& problem) {
  throw FormatError(path + ": " + problem);
}

// What another attnviz format is, so "got X" can say which file this is.
std::string known_format_hint(const std::string& format) {
  if (format == "attnviz-trace") return "a trace written by `attn trace`";
  if (format == "attnviz-scenario") return "a scenario file";
  if (format == "attnviz-model") return "a trained model written by `attn train`";
  if (format == "attnviz-lesson") return "a lesson file";
  return "";
}

}  // namespace

int check_format_header(const json& doc, const char* format, int version, const char* what, int oldest) {
  if (oldest <= 0) oldest = version;
  const auto it = doc.find("format");
  if (it == doc.end()) {
    fail("format", std::string("missing; expected \"") + format + "\" (is this an attnviz " + what + " file?)");
  }
  const json& f = *it;
  if (!f.is_string() || f.get_ref<const std::string&>() != format) {
    std::string hint;
    if (f.is_string()) {
      const std::string kind = known_format_hint(f.get_ref<const std::string&>());
      if (!kind.empty()) hint = " (this is " + kind + ", not a " + what + ")";
    }
    fail("format", std::string("expected \"") + format + "\", got " + describe(f) + hint);
  }
  const auto v = doc.find("version");
  const std::string reads = oldest == version
                                ? " (this build reads version " + std::to_string(version) + ")"
                                : " (this build reads versions " + std::to_string(oldest) + " to " + std::to_string(version) + ")";
  if (v == doc.end()) fail("version", "missing" + reads);
  // Accept 1 and 1.0; anything else that is not a whole number is an error.
  long long number = 0;
  if (v->is_number_integer() || v->is_number_unsigned()) {
    number = v->get<long long>();
  } else if (v->is_number_float() && std::abs(v->get<double>()) < 1e9 &&
             std::floor(v->get<double>()) == v->get<double>()) {
    number = static_cast<long long>(v->get<double>());
  } else {
    fail("version", "expected an integer, got " + describe(*v));
  }
  if (number < oldest || number > version) fail("version", "unsupported version " + v->dump() + reads);
  return static_cast<int>(number);
}

}  // namespace attn::io::detail
