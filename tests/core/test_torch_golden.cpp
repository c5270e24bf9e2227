// Golden fixtures from PyTorch's nn.MultiheadAttention (float64, no biases),
// made by tests/fixtures/make_torch_fixtures.py: each file is a scenario plus
// the weights and output PyTorch computed. Tolerance 1e-9 on
// |got - want| / max(1, |want|), worst element printed on failure.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "attn/attn.hpp"
#include "attn/io/scenario_file.hpp"
#include "compare.hpp"
#include "fixture_files.hpp"

namespace {

constexpr double kGoldenTol = 1e-9;


void check_fixture(const std::string& path) {
  const std::string text = ref::read_text(path);
  // The loader ignores unknown top-level keys, so the file parses as it is.
  const attn::io::ScenarioFile file = attn::io::parse_scenario(text);
  const nlohmann::json expected = nlohmann::json::parse(text).at("expected");
  const attn::Trace t = attn::compute_trace(file.scenario);

  const auto& heads = expected.at("weights");
  REQUIRE(t.dims.n_heads == static_cast<int>(heads.size()));
  for (int h = 0; h < t.dims.n_heads; ++h) {
    const attn::Stage* w = t.find(attn::StageKind::weights, h);
    REQUIRE(w != nullptr);
    const ref::Worst worst = ref::worst_element(w->value, ref::matrix_of(heads[static_cast<size_t>(h)]));
    INFO(ref::describe("weights head " + std::to_string(h), worst));
    CHECK(ref::within(worst, kGoldenTol));
  }
  const attn::Stage* out = t.find(attn::StageKind::output);
  REQUIRE(out != nullptr);
  const ref::Worst worst = ref::worst_element(out->value, ref::matrix_of(expected.at("output")));
  INFO(ref::describe("output", worst));
  CHECK(ref::within(worst, kGoldenTol));
}

}  // namespace

TEST_CASE("torch golden: the five fixtures are present") {
  int count = 0;
  for (const auto& path : ref::json_files_in(ATTNVIZ_FIXTURES_DIR))
    if (ref::stem_of(path).rfind("torch_", 0) == 0) ++count;
  CHECK(count >= 5);
}

TEST_CASE("torch golden: key padding") { check_fixture(ATTNVIZ_FIXTURES_DIR "/torch_key_padding.json"); }
TEST_CASE("torch golden: causal attn_mask") { check_fixture(ATTNVIZ_FIXTURES_DIR "/torch_causal.json"); }
TEST_CASE("torch golden: custom boolean mask") { check_fixture(ATTNVIZ_FIXTURES_DIR "/torch_custom_mask.json"); }
TEST_CASE("torch golden: cross-attention, kdim != embed_dim") { check_fixture(ATTNVIZ_FIXTURES_DIR "/torch_cross.json"); }
TEST_CASE("torch golden: cross-attention with context padding") {
  check_fixture(ATTNVIZ_FIXTURES_DIR "/torch_cross_padding.json");
}
