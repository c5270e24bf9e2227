// The KV-cache decode loop against PyTorch: tests/fixtures/modern_decode_rope
// holds the output rows of torch's own token-by-token loop over a cache
// (tests/fixtures/make_modern_fixtures.py), and the rotated keys it cached.
// Tolerance 1e-9 on |got − want| / max(1, |want|), as the other modern
// golden tests; the worst element is printed.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "attn/decode/decode.hpp"
#include "attn/io/scenario_file.hpp"
#include "compare.hpp"
#include "fixture_files.hpp"

TEST_CASE("decode golden: each step's output row and the cached rotated keys are torch's decode loop's") {
  constexpr double kTol = 1e-9;
  const std::string text = ref::read_text(std::string(ATTNVIZ_FIXTURES_DIR) + "/modern_decode_rope.json");
  const attn::Scenario s = attn::io::parse_scenario(text).scenario;
  const nlohmann::json expected = nlohmann::json::parse(text).at("expected");
  const attn::DecodeTrace dec = attn::compute_decode(s);
  const attn::Dims& d = dec.dims;
  attn::Mat outputs(d.n_q, d.d_out);  // step t's output row, as row t
  for (const attn::DecodeStep& step : dec.steps) outputs.row(step.t) = step.find(attn::StageKind::step_output)->value.stored();
  const ref::Worst out = ref::worst_element(outputs, ref::matrix_of(expected.at("decoded_output")));
  INFO(ref::describe("decoded output", out));
  CHECK(ref::within(out, kTol));
  // After the last step each cache holds every token's rotated key.
  REQUIRE(expected.contains("k_rope"));
  for (int g = 0; g < d.n_kv_heads; ++g) {
    const attn::Mat& k = *dec.steps.back().cache.k[static_cast<size_t>(g)];
    const ref::Worst keys = ref::worst_element(k, ref::matrix_of(expected.at("k_rope")[static_cast<size_t>(g)]));
    INFO(ref::describe("K cache of key/value head " + std::to_string(g), keys));
    CHECK(ref::within(keys, kTol));
  }
}
