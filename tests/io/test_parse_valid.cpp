// parse_scenario on valid input: shapes, values (row-major file -> Eigen),
// every option spelling, defaults when keys are absent, and tolerance of
// unknown keys so older builds keep reading newer files.
#include <doctest/doctest.h>

#include "attn/io/scenario_file.hpp"
#include "scenario_samples.hpp"

using attn::io::parse_scenario;
using attn::io::test::cross_attention_sample;
using attn::io::test::self_attention_sample;
using nlohmann::json;

TEST_CASE("self-attention sample parses with the right shapes and values") {
  const attn::io::ScenarioFile f = parse_scenario(self_attention_sample().dump());
  const attn::Scenario& s = f.scenario;
  REQUIRE(s.x.rows() == 3);
  REQUIRE(s.x.cols() == 4);
  CHECK(s.x(0, 2) == 0.5);   // row 0, column 2 in the file
  CHECK(s.x(2, 3) == 3.0);   // row 2, column 3
  CHECK(s.x(1, 3) == 0.25);
  CHECK(s.tokens == std::vector<std::string>{"the", "cat", "sat"});
  CHECK_FALSE(s.is_cross());
  REQUIRE(s.heads.size() == 2);
  CHECK(s.heads[0].w_v.rows() == 4);
  CHECK(s.heads[0].w_v.cols() == 3);
  CHECK(s.heads[0].w_v(1, 2) == 6.0);
  CHECK(s.heads[1].w_v(3, 0) == 1.0);
  CHECK(s.mask == attn::MaskKind::Causal);
  CHECK(s.scale == attn::ScaleMode::SqrtDk);
  CHECK_FALSE(s.w_o.has_value());
  CHECK(f.title == "sample");
  CHECK(f.description == "three tokens");
  CHECK(f.app == json::object());
  const attn::Dims d = attn::dims_of(s);
  CHECK(d.n_heads == 2);
  CHECK(d.d_k == 3);
}

TEST_CASE("cross-attention sample parses context, context_tokens and w_o") {
  const attn::Scenario s = parse_scenario(cross_attention_sample().dump()).scenario;
  REQUIRE(s.is_cross());
  CHECK(s.context->rows() == 4);
  CHECK(s.context->cols() == 4);
  CHECK(s.context_tokens.size() == 4);
  REQUIRE(s.w_o.has_value());
  CHECK(s.w_o->rows() == 6);
  CHECK((*s.w_o)(4, 0) == 2.0);
  const attn::Dims d = attn::dims_of(s);
  CHECK(d.n_q == 2);
  CHECK(d.n_k == 4);
  CHECK(d.d_out == 2);
}

TEST_CASE("minimal file: x only, everything else defaults") {
  const attn::Scenario s =
      parse_scenario(R"({"format":"attnviz-scenario","version":1,"x":[[1,2],[3,4]]})").scenario;
  CHECK(s.heads.empty());
  CHECK(s.tokens.empty());
  CHECK(s.scale == attn::ScaleMode::SqrtDk);
  CHECK(s.mask == attn::MaskKind::None);
  CHECK(s.mask_mode == attn::MaskMode::BeforeSoftmax);
  CHECK(s.score == attn::ScoreFn::Dot);
  CHECK(s.positional == attn::Positional::None);
  CHECK(s.softmax_axis == attn::SoftmaxAxis::Keys);
}

TEST_CASE("every option value is read") {
  json doc = self_attention_sample();
  SUBCASE("scale") {
    doc["scale"] = "none";
    CHECK(parse_scenario(doc.dump()).scenario.scale == attn::ScaleMode::None);
    doc["scale"] = "sqrt_dk";
    CHECK(parse_scenario(doc.dump()).scenario.scale == attn::ScaleMode::SqrtDk);
    doc["scale"] = 2.5;
    const attn::Scenario s = parse_scenario(doc.dump()).scenario;
    CHECK(s.scale == attn::ScaleMode::Temperature);
    CHECK(s.temperature == 2.5);
  }
  SUBCASE("custom mask, 0/1 and booleans mixed") {
    doc["mask"] = json::parse("[[0, 1, true], [false, 0, 1], [0, 0, 0]]");
    const attn::Scenario s = parse_scenario(doc.dump()).scenario;
    REQUIRE(s.mask == attn::MaskKind::Custom);
    REQUIRE(s.custom_mask.rows() == 3);
    CHECK(s.custom_mask(0, 1));
    CHECK(s.custom_mask(0, 2));
    CHECK_FALSE(s.custom_mask(1, 0));
    CHECK(s.custom_mask(1, 2));
    CHECK_FALSE(s.custom_mask(2, 2));
  }
  SUBCASE("key padding as booleans or 0/1") {
    doc["key_padding"] = json::parse("[false, 1, true]");
    CHECK(parse_scenario(doc.dump()).scenario.key_padding == std::vector<bool>{false, true, true});
  }
  SUBCASE("enums") {
    doc["mask_mode"] = "after_softmax";
    doc["positional"] = "alibi";
    doc["softmax_axis"] = "queries";
    const attn::Scenario s = parse_scenario(doc.dump()).scenario;
    CHECK(s.mask_mode == attn::MaskMode::AfterSoftmax);
    CHECK(s.positional == attn::Positional::Alibi);
    CHECK(s.softmax_axis == attn::SoftmaxAxis::Queries);
    doc["positional"] = "sinusoidal";
    CHECK(parse_scenario(doc.dump()).scenario.positional == attn::Positional::Sinusoidal);
  }
  SUBCASE("additive score with parameters") {
    doc["score"] = "additive";
    doc["additive"] = json::parse(R"([
      {"w": [[1,0],[0,1],[1,1]], "u": [[0,1],[1,0],[1,1]], "v": [1, -1]},
      {"w": [[1,0],[0,1],[0,0]], "u": [[1,0],[0,1],[0,0]], "v": [0.5, 2]}])");
    const attn::Scenario s = parse_scenario(doc.dump()).scenario;
    CHECK(s.score == attn::ScoreFn::Additive);
    REQUIRE(s.additive.size() == 2);
    CHECK(s.additive[1].v(1) == 2.0);
    CHECK(s.additive[0].u(2, 1) == 1.0);
  }
}

TEST_CASE("unknown top-level keys are ignored, app data is kept verbatim") {
  json doc = self_attention_sample();
  doc["added_in_version_1_5"] = {{"anything", json::array({1, 2, 3})}};
  doc["attnviz"] = {{"view", {{"stage", "weights"}, {"zoom", 1.5}}}, {"lesson", json::array({"a", "b"})}};
  const attn::io::ScenarioFile f = parse_scenario(doc.dump());
  CHECK(f.app == doc["attnviz"]);
  CHECK(f.scenario.x.rows() == 3);
}

TEST_CASE("unknown top-level keys load but are reported as warnings") {
  json doc = self_attention_sample();
  CHECK(parse_scenario(doc.dump()).warnings.empty());  // every sample key is known
  doc["maks"] = "causal";
  const attn::io::ScenarioFile f = parse_scenario(doc.dump());
  REQUIRE(f.warnings.size() == 1);
  CHECK(f.warnings[0].find("\"maks\"") != std::string::npos);
  CHECK(f.scenario.mask == attn::MaskKind::Causal);  // the sample's own mask, untouched
}
