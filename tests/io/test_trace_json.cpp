// trace_to_json: the published trace format. Checks the envelope, null for
// masked -inf logits and for stages that are not per head, row-major data
// (x is 3x4 so a transposed dump cannot pass), and that the dump parses.
#include <doctest/doctest.h>

#include <cmath>

#include "attn/io/scenario_file.hpp"
#include "scenario_samples.hpp"

using nlohmann::json;

namespace {

const json* find_stage(const json& trace, const std::string& id, const json& head) {
  for (const json& st : trace["stages"]) {
    if (st["id"] == id && st["head"] == head) return &st;
  }
  return nullptr;
}

json sample_trace_json() {
  const attn::io::ScenarioFile f = attn::io::parse_scenario(attn::io::test::self_attention_sample().dump());
  const attn::Trace trace = attn::compute_trace(f.scenario);
  // Round-trip through text so we test what a reader of the file would see.
  return json::parse(attn::io::trace_to_json(trace).dump());
}

}  // namespace

TEST_CASE("trace JSON envelope, dims and stage fields") {
  const json t = sample_trace_json();
  CHECK(t["format"] == "attnviz-trace");
  CHECK(t["version"] == 1);
  CHECK(t["dims"]["n_q"] == 3);
  CHECK(t["dims"]["d_model"] == 4);
  CHECK(t["dims"]["n_heads"] == 2);
  CHECK(t["notes"].is_array());
  REQUIRE(t["stages"].is_array());
  REQUIRE(t["stages"].size() > 5);
  for (const json& st : t["stages"]) {
    CAPTURE(st["id"].dump());
    CHECK(st["id"].is_string());
    CHECK((st["head"].is_null() || st["head"].is_number_integer()));
    CHECK(st["title"].is_string());
    CHECK(st["formula"].is_string());
    CHECK(st["kind"].is_string());
    REQUIRE(st["data"].size() == st["rows"].get<std::size_t>());
    for (const json& row : st["data"]) CHECK(row.size() == st["cols"].get<std::size_t>());
  }
}

TEST_CASE("non-head stages have head null, per-head stages a number") {
  const json t = sample_trace_json();
  const json* x = find_stage(t, "x", nullptr);
  REQUIRE(x != nullptr);
  CHECK((*x)["head"].is_null());
  CHECK(find_stage(t, "weights", 1) != nullptr);
  CHECK(find_stage(t, "weights", nullptr) == nullptr);
}

TEST_CASE("data is row-major: data[r][c] is value(r, c)") {
  const json t = sample_trace_json();
  const json* x = find_stage(t, "x", nullptr);
  REQUIRE(x != nullptr);
  CHECK((*x)["rows"] == 3);
  CHECK((*x)["cols"] == 4);
  const json doc = attn::io::test::self_attention_sample();
  for (std::size_t r = 0; r < 3; ++r)
    for (std::size_t c = 0; c < 4; ++c) CHECK((*x)["data"][r][c].get<double>() == doc["x"][r][c].get<double>());
  // scores[i][j] = q_i . k_j, recomputed from the JSON rows of Q and K.
  const json* q = find_stage(t, "q", 0);
  const json* k = find_stage(t, "k", 0);
  const json* scores = find_stage(t, "scores", 0);
  REQUIRE((q && k && scores));
  for (std::size_t i = 0; i < 3; ++i) {
    for (std::size_t j = 0; j < 3; ++j) {
      double dot = 0;
      for (std::size_t d = 0; d < 3; ++d) dot += (*q)["data"][i][d].get<double>() * (*k)["data"][j][d].get<double>();
      CHECK((*scores)["data"][i][j].get<double>() == doctest::Approx(dot));
    }
  }
}

TEST_CASE("masked logits (-inf) are written as null, weights stay numbers") {
  const json t = sample_trace_json();
  const json* masked = find_stage(t, "masked", 0);
  REQUIRE(masked != nullptr);
  // Causal mask: key j > query i is blocked.
  for (std::size_t i = 0; i < 3; ++i) {
    for (std::size_t j = 0; j < 3; ++j) {
      CAPTURE(i);
      CAPTURE(j);
      CHECK((*masked)["data"][i][j].is_null() == (j > i));
    }
  }
  const json* weights = find_stage(t, "weights", 0);
  REQUIRE(weights != nullptr);
  for (const json& row : (*weights)["data"]) {
    double sum = 0;
    for (const json& v : row) {
      REQUIRE(v.is_number());
      sum += v.get<double>();
    }
    CHECK(sum == doctest::Approx(1.0));
  }
}

TEST_CASE("a hand-made trace: -inf, +inf and NaN never reach the JSON as numbers") {
  attn::Trace trace;
  attn::Stage st;
  st.id = attn::StageKind::masked;
  st.head = 0;
  attn::Mat m(2, 3);
  m << 1, -INFINITY, 2, 3, 4, -INFINITY;
  st.value = m;
  trace.stages.push_back(st);
  const std::string text = attn::io::trace_to_json(trace).dump();
  CHECK(text.find("inf") == std::string::npos);
  CHECK(text.find("NaN") == std::string::npos);
  const json t = json::parse(text);
  CHECK(t["stages"][0]["data"] == json::parse("[[1.0, null, 2.0], [3.0, 4.0, null]]"));
  CHECK(t["stages"][0]["head"] == 0);
}
