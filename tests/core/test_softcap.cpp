// Gemma 2's soft cap on the scaled scores (Scenario::softcap): the numbers
// are held to the plain-loop reference (test_reference.cpp), the decode loop
// (decode/) and the flash tiles (flash/); here: what is refused, what the
// formula and each cell's explanation say, and the file format.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "attn/explain/explain.hpp"
#include "attn/io/scenario_file.hpp"
#include "attn/compute/trace.hpp"
#include "reference/random_scenario.hpp"

namespace {

attn::Scenario capped_scene(double cap) {
  ref::CaseSpec c;
  c.name = "capped";
  c.n_q = 5, c.n_heads = 2, c.d_k = 3, c.d_v = 2, c.d_out = 3, c.seed = 91;
  c.mask = attn::MaskKind::Causal;
  c.softcap = cap;
  return ref::make_scenario(c);
}

}  // namespace

TEST_CASE("soft cap: a negative, NaN or infinite cap is refused by name") {
  for (double bad : {-1.0, std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
    attn::Scenario s = capped_scene(bad);
    INFO(bad);
    CHECK(attn::validate(s).find("softcap: must be a positive number") == 0);
  }
  CHECK(attn::validate(capped_scene(0)) == "");
}

TEST_CASE("soft cap: the scaled stage says so, and no scaled score passes the cap") {
  const attn::Scenario s = capped_scene(0.3);
  const attn::Trace t = attn::compute_trace(s);
  const attn::Stage* scaled = t.find(attn::StageKind::scaled, 1);
  REQUIRE(scaled);
  CHECK(scaled->formula == "scaled = c·tanh(scores / √d_k / c), c = 0.3");
  const attn::Stage* scores = t.find(attn::StageKind::scores, 1);
  double largest = 0, largest_raw = 0;
  for (int i = 0; i < t.dims.n_q; ++i)
    for (int j = 0; j < t.dims.n_k; ++j) {
      largest = std::max(largest, std::abs(scaled->value(i, j)));
      largest_raw = std::max(largest_raw, std::abs(scores->value(i, j)) / std::sqrt(3.0));
    }
  MESSAGE("largest scaled score " << largest << " (uncapped " << largest_raw << ")");
  CHECK(largest < 0.3);
  CHECK(largest_raw > 0.3);  // the cap bites in this scene, so the test can tell
}

TEST_CASE("soft cap: each scaled cell's explanation ends with the cap and reaches the cell") {
  const attn::Scenario s = capped_scene(0.3);
  const attn::Trace t = attn::compute_trace(s);
  const attn::Stage* scaled = t.find(attn::StageKind::scaled, 0);
  REQUIRE(scaled);
  double worst = 0;
  for (int i = 0; i < t.dims.n_q; ++i)
    for (int j = 0; j < t.dims.n_k; ++j) {
      const attn::Explanation e = attn::explain(t, s, {attn::StageKind::scaled, 0}, i, j);
      REQUIRE(e.steps.size() == 2);
      CHECK(e.steps.back().title == "soft cap");
      CHECK(e.formula == "scaled[i,j] = c·tanh(S[i,j] / √d_k / c), c = 0.3");
      worst = std::max(worst, std::abs(e.steps.back().result - scaled->value(i, j)));
    }
  CHECK(worst == 0);
}

TEST_CASE("soft cap: saved as version 2 and read back - a bad value in a file is named") {
  attn::io::ScenarioFile f;
  f.scenario = capped_scene(0.75);
  const std::string text = attn::io::scenario_to_json(f).dump();
  CHECK(text.find("\"softcap\":0.75") != std::string::npos);
  CHECK(text.find("\"version\":2") != std::string::npos);
  const attn::io::ScenarioFile back = attn::io::parse_scenario(text);
  CHECK(back.scenario.softcap == 0.75);
  CHECK(back.warnings.empty());
  attn::io::ScenarioFile plain;
  plain.scenario = capped_scene(0);
  CHECK(attn::io::scenario_to_json(plain).dump().find("softcap") == std::string::npos);
  std::string bad = text;
  bad.replace(bad.find("\"softcap\":0.75"), 14, "\"softcap\":-2");
  CHECK_THROWS_WITH(attn::io::parse_scenario(bad), doctest::Contains("softcap: expected a positive number"));
}
