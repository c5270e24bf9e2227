// The simdjson path for plainly valid files (core/io/src/json_fast_parse.hpp)
// against the nlohmann path it stands in for: over every JSON file the tests
// and assets hold, a generated 256-token scene, and inputs picked for where
// two parsers could disagree (integer kinds, -0, the largest and smallest
// doubles, duplicate keys, raw control characters, surrogates, depth and
// length limits). Whenever the fast path returns a document it must be the
// nlohmann path's, node for node: the same kind (unsigned, signed, float)
// and the same bits; whenever the nlohmann path refuses a text, the fast
// path must return nothing, so every message still comes from one place.
// (Integers of either sign count as one kind: see kind() below.)
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "attn/io/scenario_file.hpp"
#include "json/json_dom_builder.hpp"
#include "json/json_fast_parse.hpp"
#include "json/json_text.hpp"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// Integers of either sign kind count as one kind: every reader asks only
// "is it an integer" (and simdjson cannot tell "-0", which nlohmann keeps
// as a signed 0, from "0", an unsigned one).
json::value_t kind(const json& j) {
  return j.is_number_unsigned() ? json::value_t::number_integer : j.type();
}

// Same kind and same bits at every node; "" when equal, else where they differ.
std::string differs(const json& a, const json& b, const std::string& at = "$") {
  if (kind(a) != kind(b)) return at + ": " + a.type_name() + " " + a.dump() + " against " + b.type_name() + " " + b.dump();
  if (a.is_number_float()) {
    const double x = a.get<double>(), y = b.get<double>();
    return std::memcmp(&x, &y, sizeof x) == 0 ? "" : at + ": " + a.dump() + " against " + b.dump();
  }
  if (a.is_array()) {
    if (a.size() != b.size()) return at + ": " + std::to_string(a.size()) + " against " + std::to_string(b.size()) + " items";
    for (std::size_t i = 0; i < a.size(); ++i)
      if (std::string d = differs(a[i], b[i], at + "[" + std::to_string(i) + "]"); !d.empty()) return d;
    return "";
  }
  if (a.is_object()) {
    if (a.size() != b.size()) return at + ": members differ";
    for (auto it = a.begin(); it != a.end(); ++it) {
      if (!b.contains(it.key())) return at + "." + it.key() + ": missing";
      if (std::string d = differs(it.value(), b[it.key()], at + "." + it.key()); !d.empty()) return d;
    }
    return "";
  }
  return a == b ? "" : at + ": " + a.dump() + " against " + b.dump();
}

// Checks one text; returns whether the fast path took it.
bool check_text(const std::string& text, const std::string& name) {
  std::optional<json> slow;
  try {
    slow = attn::io::detail::parse_json_text_with_nlohmann(text, attn::io::detail::kScenarioKind);
  } catch (const attn::io::FormatError&) {
  }
  const std::optional<json> fast = attn::io::detail::fast_parse(text, attn::io::detail::kMaxJsonDepth);
  INFO(name);
  if (!slow) {
    CHECK_MESSAGE(!fast, "the fast path took a text the nlohmann path refuses");
    return false;
  }
  if (fast) CHECK(differs(*fast, *slow) == "");
  return fast.has_value();
}

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST_CASE("fast parse: every JSON file of the assets and the tests reads as the nlohmann path reads it") {
  if (!attn::io::detail::fast_parse_available()) {
    MESSAGE("built without simdjson: nothing to compare");
    return;
  }
  int files = 0, valid_taken = 0;
  for (const char* dir : {ATTNVIZ_ASSETS_DIR, ATTNVIZ_FIXTURES_DIR, ATTN_TEST_DATA_DIR}) {
    for (const auto& entry : fs::recursive_directory_iterator(dir)) {
      if (!entry.is_regular_file()) continue;
      const std::string ext = entry.path().extension().string();
      if (ext != ".json" && ext != ".bin") continue;
      ++files;
      valid_taken += check_text(read(entry.path()), entry.path().string());
    }
  }
  MESSAGE(files, " files, ", valid_taken, " taken by the fast path");
  CHECK(files >= 50);
  CHECK(valid_taken >= 30);  // it is used, not bypassed
}

TEST_CASE("fast parse: edge cases read the same or go to the nlohmann path") {
  if (!attn::io::detail::fast_parse_available()) return;
  std::string deep_ok, deep_bad;
  for (std::size_t i = 0; i < attn::io::detail::kMaxJsonDepth; ++i) deep_ok += "[";
  deep_ok += "1";
  for (std::size_t i = 0; i < attn::io::detail::kMaxJsonDepth; ++i) deep_ok += "]";
  deep_bad = "[" + deep_ok + "]";
  const std::vector<std::string> texts = {
      "[0]", "[1]", "[-1]", "[-0]", "[-0.0]", "[0.0]", "[12]", "[12.0]", "[1e5]", "[1E+2]", "[-1e-2]",
      "[9223372036854775807]", "[9223372036854775808]", "[-9223372036854775808]", "[-9223372036854775809]",
      "[18446744073709551615]", "[18446744073709551616]", "[1e400]", "[-1e400]", "[1e-400]", "[4.9e-324]",
      "[2.2250738585072014e-308]", "[1.7976931348623157e308]", "[0.1, 0.2, 0.30000000000000004]",
      "[123456789012345678901234567890]", "[1.00000000000000011102230246251565404236316680908203125]",
      "{\"a\": 1, \"a\": 2}", "{\"a\": {\"b\": 1, \"b\": 1}}", "[\"tab\there\"]", "[\"nul\\u0000\"]",
      "[\"\\ud800\"]", "[\"\\udc00\\ud800\"]", "[\"\\ud83d\\ude00\"]", "[\"caf\xc3\xa9\"]", "\xef\xbb\xbf{}",
      "{} x", "[1,]", "[01]", "[1.]", "[.5]", "[+1]", "[true, false, null]", "  {\"k\": []}  ", "[\"\\\"\"]",
      "{\"k\": \"" + std::string(attn::io::detail::kMaxStringBytes, 'x') + "\"}",
      "{\"k\": \"" + std::string(attn::io::detail::kMaxStringBytes + 1, 'x') + "\"}",
      "{\"" + std::string(attn::io::detail::kMaxStringBytes + 1, 'k') + "\": 1}", deep_ok, deep_bad,
      "[NaN]", "[Infinity]", "['a']", "{\"a\" 1}", "[1 2]", "\"just a string\"", "42"};
  int taken = 0;
  for (std::size_t i = 0; i < texts.size(); ++i) taken += check_text(texts[i], "text " + std::to_string(i) + ": " + texts[i].substr(0, 60));
  CHECK(taken >= 20);
}

TEST_CASE("fast parse: a generated 256-token scene gives the same scenario either way") {
  std::mt19937 rng(3);
  std::normal_distribution<double> n;
  attn::io::ScenarioFile f;
  f.scenario.x.resize(256, 32);
  for (Eigen::Index i = 0; i < f.scenario.x.size(); ++i) f.scenario.x.data()[i] = n(rng) * std::pow(10.0, i % 7 - 3);
  for (int h = 0; h < 2; ++h) {
    attn::HeadWeights w{attn::Mat(32, 8), attn::Mat(32, 8), attn::Mat(32, 8)};
    for (attn::Mat* m : {&w.w_q, &w.w_k, &w.w_v})
      for (Eigen::Index i = 0; i < m->size(); ++i) m->data()[i] = n(rng);
    f.scenario.heads.push_back(w);
  }
  f.scenario.mask = attn::MaskKind::Causal;
  const std::string path = std::string(ATTN_IO_TEST_TMP) + "/fast_parse_scene.json";
  fs::create_directories(ATTN_IO_TEST_TMP);
  attn::io::save_scenario(path, f);
  const std::string text = read(path);
  if (attn::io::detail::fast_parse_available()) CHECK(check_text(text, path));
  const attn::io::ScenarioFile loaded = attn::io::parse_scenario(text);
  CHECK(loaded.scenario.x == f.scenario.x);  // the writer's digits read back exactly
  CHECK(loaded.scenario.heads[1].w_v == f.scenario.heads[1].w_v);
}
