// parse_scenario on malformed input: one test per class of mistake. Each
// starts from a valid sample, breaks one thing, and checks that the single
// FormatError message names the field path and the problem.
#include <doctest/doctest.h>

#include "attn/io/scenario_file.hpp"
#include "scenario_samples.hpp"

using attn::io::test::cross_attention_sample;
using attn::io::test::parse_error_of;
using attn::io::test::self_attention_sample;
using nlohmann::json;

TEST_CASE("the samples themselves are valid") {
  CHECK(parse_error_of(self_attention_sample()) == "<no error>");
  CHECK(parse_error_of(cross_attention_sample()) == "<no error>");
}

TEST_CASE("wrong number of rows in a head's w_k (cross-attention)") {
  json doc = cross_attention_sample();
  doc["heads"][1]["w_k"].erase(3);  // 3 rows instead of d_ctx = 4
  CHECK(parse_error_of(doc) == "heads[1].w_k: expected 4 rows (context width), got 3");
}

TEST_CASE("a non-number inside a matrix") {
  json doc = self_attention_sample();
  doc["x"][1][2] = "abc";
  CHECK(parse_error_of(doc) == "x[1][2]: expected a number, got string \"abc\"");
  doc = self_attention_sample();
  doc["heads"][0]["w_q"][3][1] = nullptr;
  CHECK(parse_error_of(doc) == "heads[0].w_q[3][1]: expected a number, got null");
  doc = self_attention_sample();
  doc["x"][0][0] = true;
  CHECK(parse_error_of(doc) == "x[0][0]: expected a number, got true");
}

TEST_CASE("ragged rows") {
  json doc = self_attention_sample();
  doc["x"][2].erase(3);
  CHECK(parse_error_of(doc) == "x[2]: row has 3 numbers, expected 4 like row 0");
}

TEST_CASE("a row that is not an array, and matrices that are not arrays") {
  json doc = self_attention_sample();
  doc["x"][1] = 5;
  CHECK(parse_error_of(doc) == "x[1]: expected a row (an array of numbers), got number 5");
  doc = self_attention_sample();
  doc["x"] = "matrix";
  CHECK(parse_error_of(doc) == "x: expected an array of rows of numbers, got string \"matrix\"");
  doc = self_attention_sample();
  doc["x"] = json::array();
  CHECK(parse_error_of(doc) == "x: expected 1 to 16384 rows, got an empty array");
}

TEST_CASE("numbers that overflow a double, and NaN/Infinity tokens") {
  std::string text = self_attention_sample().dump();
  const std::string first_row = "[1,0,0.5,-1]";
  REQUIRE(text.find(first_row) != std::string::npos);
  std::string overflow = text;
  overflow.replace(overflow.find(first_row), first_row.size(), "[1,1e999,0.5,-1]");
  CHECK(parse_error_of(overflow) == "x[0][1]: not finite (1e999 is too large for a double)");
  std::string nan = text;
  nan.replace(nan.find(first_row), first_row.size(), "[1,0,NaN,-1]");
  CHECK(parse_error_of(nan).rfind("x[0][2]: NaN and Infinity are not valid JSON numbers", 0) == 0);
  std::string inf = text;
  inf.replace(inf.find(first_row), first_row.size(), "[-Infinity,0,0.5,-1]");
  CHECK(parse_error_of(inf).rfind("x[0][0]: NaN and Infinity are not valid JSON numbers", 0) == 0);
}

TEST_CASE("w_o with the wrong number of rows") {
  json doc = cross_attention_sample();
  doc["w_o"].erase(5);  // 5 rows, but heads x d_v = 2 x 3 = 6
  const std::string msg = parse_error_of(doc);
  CHECK(msg.rfind("w_o: expected 6 rows", 0) == 0);
  CHECK(msg.find("got 5") != std::string::npos);
}

TEST_CASE("unknown mask kind and bad mask cells") {
  json doc = self_attention_sample();
  doc["mask"] = "diagonal";
  CHECK(parse_error_of(doc) ==
        "mask: unknown mask kind \"diagonal\" (expected \"none\", \"causal\", an n×m array, or an object such as "
        "{\"kind\": \"sliding_window\", \"window\": 4})");
  doc["mask"] = json::parse("[[0,1,0],[0,2,0],[0,0,0]]");
  CHECK(parse_error_of(doc) == "mask[1][1]: expected 0, 1, true or false, got number 2");
  doc["mask"] = json::parse("[[0,1],[0,0]]");
  CHECK(parse_error_of(doc).rfind("mask: expected a 3×3 array", 0) == 0);
}

TEST_CASE("non-positive or malformed scale") {
  json doc = self_attention_sample();
  doc["scale"] = -1;
  CHECK(parse_error_of(doc) == "scale: must be positive, got -1");
  doc["scale"] = 0;
  CHECK(parse_error_of(doc) == "scale: must be positive, got 0");
  doc["scale"] = "sqrt";
  CHECK(parse_error_of(doc) ==
        "scale: unknown scale \"sqrt\" (expected \"sqrt_dk\", \"none\" or a positive number)");
  doc["scale"] = json::array();
  CHECK(parse_error_of(doc) ==
        "scale: expected \"sqrt_dk\", \"none\" or a positive number, got an empty array");
}

TEST_CASE("token labels: wrong count or type") {
  json doc = self_attention_sample();
  doc["tokens"].erase(2);
  CHECK(parse_error_of(doc) == "tokens: expected 3 labels (one per row of x), got 2");
  doc = self_attention_sample();
  doc["tokens"][1] = 7;
  CHECK(parse_error_of(doc) == "tokens[1]: expected a string label, got number 7");
}

TEST_CASE("format and version") {
  json doc = self_attention_sample();
  doc["version"] = 3;
  CHECK(parse_error_of(doc) == "version: unsupported version 3 (this build reads versions 1 to 2)");
  doc["version"] = 0;
  CHECK(parse_error_of(doc) == "version: unsupported version 0 (this build reads versions 1 to 2)");
  doc["version"] = "1";
  CHECK(parse_error_of(doc) == "version: expected an integer, got string \"1\"");
  doc.erase("version");
  CHECK(parse_error_of(doc) == "version: missing (this build reads versions 1 to 2)");
  doc = self_attention_sample();
  doc.erase("format");
  CHECK(parse_error_of(doc).rfind("format: missing; expected \"attnviz-scenario\"", 0) == 0);
  doc["format"] = "attnviz-trace";
  CHECK(parse_error_of(doc).rfind("format: expected \"attnviz-scenario\", got string \"attnviz-trace\"", 0) == 0);
  CHECK(parse_error_of(json::array({1, 2})) ==
        "expected a JSON object at the top level, got an array");
}

TEST_CASE("missing and mistyped fields") {
  json doc = self_attention_sample();
  doc.erase("x");
  CHECK(parse_error_of(doc) == "x: missing (required n×d_model array of numbers)");
  doc = self_attention_sample();
  doc["heads"][1].erase("w_v");
  CHECK(parse_error_of(doc) == "heads[1].w_v: missing (d_ctx×d_v array)");
  doc = self_attention_sample();
  doc["heads"][0] = json::array();
  CHECK(parse_error_of(doc).rfind("heads[0]: expected an object", 0) == 0);
  doc = self_attention_sample();
  doc["softmax_axis"] = "rows";
  CHECK(parse_error_of(doc) == "softmax_axis: unknown value \"rows\" (expected \"keys\" or \"queries\")");
  doc = self_attention_sample();
  doc["key_padding"] = json::parse("[0, \"yes\", 1]");
  CHECK(parse_error_of(doc) == "key_padding[1]: expected 0, 1, true or false, got string \"yes\"");
  doc = self_attention_sample();
  doc["title"] = 3;
  CHECK(parse_error_of(doc) == "title: expected a string, got number 3");
  doc = self_attention_sample();
  doc["attnviz"] = "view";
  CHECK(parse_error_of(doc) == "attnviz: expected an object (app data), got string \"view\"");
  doc = self_attention_sample();
  doc["score"] = "additive";
  doc["additive"] = json::parse(R"([{"w": [[1]], "u": [[1]], "v": [1, "two"]}])");
  CHECK(parse_error_of(doc) == "additive[0].v[1]: expected a number, got string \"two\"");
}

TEST_CASE("absurd sizes are refused before allocating") {
  attn::Limits small;
  small.max_tokens = 2;
  small.max_width = 3;
  const std::string text = self_attention_sample().dump();
  try {
    (void)attn::io::parse_scenario(text, small);
    FAIL("expected a FormatError");
  } catch (const attn::io::FormatError& e) {
    CHECK(std::string(e.what()) == "x: expected 1 to 2 rows, got 3");
  }
  small.max_tokens = 3;
  try {
    (void)attn::io::parse_scenario(text, small);
    FAIL("expected a FormatError");
  } catch (const attn::io::FormatError& e) {
    CHECK(std::string(e.what()) == "x[0]: expected 1 to 3 numbers, got 4");
  }
  // Within the per-matrix limits but a trace far too big: validate() says so.
  attn::Limits tiny_trace;
  tiny_trace.max_trace_bytes = 1000;
  try {
    (void)attn::io::parse_scenario(text, tiny_trace);
    FAIL("expected a FormatError");
  } catch (const attn::io::FormatError& e) {
    CHECK(std::string(e.what()).rfind("scenario too large", 0) == 0);
  }
}
