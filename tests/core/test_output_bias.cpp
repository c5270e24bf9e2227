// W_O's bias b_O (Scenario::output_bias): a checkpoint's attention output
// bias, so a real layer's scene ends at the layer's own attention output.
// The numbers themselves are held to the plain-loop reference in
// test_reference.cpp (named case and the sweep) and to the decode loop in
// decode/; here: what is refused, what is explained, and the file format.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "attn/explain/explain.hpp"
#include "attn/io/scenario_file.hpp"
#include "attn/scenario/scenario.hpp"
#include "attn/compute/trace.hpp"
#include "reference/random_scenario.hpp"

namespace {

attn::Scenario biased_scene() {
  ref::CaseSpec c;
  c.name = "b_O";
  c.n_q = 4, c.n_heads = 2, c.d_k = 2, c.d_v = 3, c.d_out = 5, c.output_bias = true, c.seed = 77;
  c.mask = attn::MaskKind::Causal;
  return ref::make_scenario(c);
}

}  // namespace

TEST_CASE("output bias: refused without W_O, at the wrong length, or not finite, each named") {
  attn::Scenario s = biased_scene();
  REQUIRE(attn::validate(s) == "");
  attn::Scenario no_w_o = s;
  no_w_o.w_o.reset();
  CHECK(attn::validate(no_w_o).find("output_bias: given without a w_o") == 0);
  attn::Scenario short_bias = s;
  short_bias.output_bias = attn::Vec::Zero(4);
  CHECK(attn::validate(short_bias) == "output_bias: 4 entries, but w_o has 5 columns (one bias per output column)");
  attn::Scenario nan_bias = s;
  nan_bias.output_bias(3) = std::numeric_limits<double>::quiet_NaN();
  CHECK(attn::validate(nan_bias).find("output_bias[3]: must be a finite number") == 0);
}

TEST_CASE("output bias: every output cell's explanation ends with + b_O[c] and reaches the cell's value") {
  const attn::Scenario s = biased_scene();
  const attn::Trace t = attn::compute_trace(s);
  const attn::Stage* out = t.find(attn::StageKind::output);
  REQUIRE(out);
  CHECK(out->formula == "output = concat · W_O + b_O");
  double worst = 0;
  for (int i = 0; i < t.dims.n_q; ++i)
    for (int c = 0; c < t.dims.d_out; ++c) {
      const attn::Explanation e = attn::explain(t, s, {attn::StageKind::output, -1}, i, c);
      REQUIRE(e.steps.size() == 3);  // products, sum, plus the bias
      const attn::ExplainStep& last = e.steps.back();
      CHECK(last.title == "plus the bias");
      REQUIRE(last.terms.size() == 1);
      CHECK(last.terms[0].rhs_label == "b_O[" + std::to_string(c) + "]");
      CHECK(last.terms[0].rhs == s.output_bias(c));
      CHECK(last.terms[0].lhs == e.steps[1].result);
      worst = std::max(worst, std::abs(last.result - out->value(i, c)));
    }
  INFO("worst |explained − traced| = " << worst);
  CHECK(worst <= 1e-12);  // the explanation sums in its own order
}

TEST_CASE("output bias: written as version 2 and read back exactly, a malformed one named") {
  attn::io::ScenarioFile f;
  f.scenario = biased_scene();
  const nlohmann::json j = attn::io::scenario_to_json(f);
  CHECK(j.at("version") == 2);
  REQUIRE(j.contains("output_bias"));
  const attn::io::ScenarioFile back = attn::io::parse_scenario(j.dump());
  CHECK(back.scenario.output_bias == f.scenario.output_bias);
  CHECK(back.warnings.empty());

  nlohmann::json bad = j;
  bad["output_bias"] = "zero";
  CHECK_THROWS_WITH(attn::io::parse_scenario(bad.dump()), doctest::Contains("output_bias"));
  bad["output_bias"] = nlohmann::json::array({1, 2});
  CHECK_THROWS_WITH(attn::io::parse_scenario(bad.dump()),
                    "output_bias: 2 entries, but w_o has 5 columns (one bias per output column)");
  bad["output_bias"] = nlohmann::json::array({1, 2, "x", 4, 5});
  CHECK_THROWS_WITH(attn::io::parse_scenario(bad.dump()), doctest::Contains("output_bias[2]"));
}

TEST_CASE("output bias: a new b_O through update_trace gives the trace computed afresh") {
  const attn::Scenario before = biased_scene();
  attn::Scenario after = before;
  after.output_bias(1) += 0.5;
  const attn::Trace updated = attn::update_trace(attn::compute_trace(before), before, after);
  const attn::Trace fresh = attn::compute_trace(after);
  const attn::Mat a = updated.find(attn::StageKind::output)->value.dense();
  const attn::Mat b = fresh.find(attn::StageKind::output)->value.dense();
  CHECK((a - b).cwiseAbs().maxCoeff() == 0.0);
  CHECK(a != attn::compute_trace(before).find(attn::StageKind::output)->value.dense());
}
