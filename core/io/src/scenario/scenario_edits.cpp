// Scenario edits by field path ("heads[1].w_q[2][0]"), applied to the file
// form of the scenario and read back through the normal parser, so every
// rule of the format (shapes, limits, finite numbers) holds after an edit.
#include <algorithm>
#include <cctype>

#include "attn/io/excerpt.hpp"
#include "attn/io/lesson_file.hpp"
#include "json/field_path.hpp"
#include "json/json_fields.hpp"

namespace attn::io {

using nlohmann::json;
using namespace detail;

namespace {

[[noreturn]] void fail(const std::string& where, const std::string& problem) { throw FormatError(where + ": " + problem); }

struct PathPart {
  std::string key;  // empty for an index
  std::size_t index = 0;
};

// "a.b[2][0]" -> a, b, [2], [0]. Throws on anything else.
std::vector<PathPart> split_path(const std::string& path, const std::string& where) {
  std::vector<PathPart> parts;
  std::size_t i = 0;
  while (i < path.size()) {
    if (path[i] == '[') {
      const std::size_t close = path.find(']', i);
      const std::string digits = close == std::string::npos ? "" : path.substr(i + 1, close - i - 1);
      if (digits.empty() || digits.size() > 9 ||
          !std::all_of(digits.begin(), digits.end(), [](unsigned char c) { return std::isdigit(c); }))
        fail(where, quoted_excerpt(path) + " is not a field path (expected e.g. \"x[0][1]\" or \"heads[1].w_q\")");
      parts.push_back({"", static_cast<std::size_t>(std::stoul(digits))});
      i = close + 1;
    } else {
      if (path[i] == '.') ++i;
      const std::size_t end = path.find_first_of(".[", i);
      const std::string key = path.substr(i, end == std::string::npos ? std::string::npos : end - i);
      if (key.empty()) fail(where, quoted_excerpt(path) + " is not a field path (expected e.g. \"x[0][1]\" or \"heads[1].w_q\")");
      parts.push_back({key, 0});
      i = end == std::string::npos ? path.size() : end;
    }
  }
  if (parts.empty() || parts.front().key.empty()) fail(where, "a field path starts with a key, e.g. \"scale\"");
  return parts;
}

void set_path(json& doc, const ScenarioEdit& e, const std::string& where) {
  const std::vector<PathPart> parts = split_path(e.path, where);
  json* at = &doc;
  std::string walked;
  for (std::size_t k = 0; k < parts.size(); ++k) {
    const PathPart& p = parts[k];
    const bool last = k + 1 == parts.size();
    if (!p.key.empty()) {
      walked = path_key(walked, p.key);
      if (!at->is_object()) fail(where, walked + ": no such field in the scenario");
      // Optional top-level fields may be absent from a file; nested ones must exist.
      static const char* const optional[] = {"tokens", "context", "context_tokens", "heads", "w_o", "output_bias", "scale", "softcap", "mask",
                                             "key_padding", "mask_mode", "score", "additive", "positional",
                                             "softmax_axis", "title", "description", "rope", "n_kv_heads"};
      const bool may_add = last && k == 0 &&
                           std::any_of(std::begin(optional), std::end(optional), [&](const char* o) { return p.key == o; });
      if (!at->contains(p.key) && !may_add) fail(where, walked + ": no such field in a scenario");
      at = &(*at)[p.key];
    } else {
      walked = path_index(walked, p.index);
      if (!at->is_array() || p.index >= at->size())
        fail(where, walked + ": out of range" + (at->is_array() ? " (it has " + std::to_string(at->size()) + " entries)" : ""));
      at = &(*at)[p.index];
    }
  }
  *at = e.value;
}

}  // namespace

std::vector<ScenarioEdit> read_edits(const json& j, const std::string& path) {
  if (!j.is_array()) fail(path, "expected an array of {\"set\": field, \"to\": value}, got " + describe(j));
  std::vector<ScenarioEdit> out;
  for (std::size_t i = 0; i < j.size(); ++i) {
    const std::string at = path_index(path, i);
    const json& e = j[i];
    if (!e.is_object() || !e.contains("set") || !e.contains("to"))
      fail(at, "expected {\"set\": field, \"to\": value}, got " + describe(e));
    for (const auto& item : e.items())
      if (item.key() != "set" && item.key() != "to") fail(path_key(at, item.key()), "unknown key (an edit has \"set\" and \"to\")");
    out.push_back({read_string(e["set"], path_key(at, "set")), e["to"]});
    split_path(out.back().path, path_key(at, "set"));  // refuse a malformed path now
  }
  return out;
}

void apply_edits(ScenarioFile& file, const std::vector<ScenarioEdit>& edits, const std::string& where) {
  if (edits.empty()) return;
  json doc = scenario_to_json(file);
  for (std::size_t i = 0; i < edits.size(); ++i) set_path(doc, edits[i], path_index(where, i) + ".set");
  ScenarioFile edited;
  try {
    edited = parse_scenario(doc.dump());
  } catch (const FormatError& e) {
    fail(where, std::string("the edited scene is not valid: ") + e.what());
  }
  // The file form has no unknown keys, so an unknown key is the edit's own typo.
  for (const std::string& w : edited.warnings)
    if (w.rfind("unknown key", 0) == 0) fail(where, w);
  edited.app = file.app;
  file = std::move(edited);
}

}  // namespace attn::io
