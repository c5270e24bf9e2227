// Golden fixtures for modern attention from PyTorch (float64), made by
// tests/fixtures/make_modern_fixtures.py from the published definitions:
// RoPE in Llama's and GPT-J's pairings (partial, offset), grouped- and
// multi-query heads by repeating K/V, the sliding window with a sink and
// the strided pattern as explicit masks, and the KV-cache decode loop.
// Tolerance 1e-9 on |got − want| / max(1, |want|), worst element printed.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "attn/attn.hpp"
#include "attn/io/scenario_file.hpp"
#include "compare.hpp"
#include "fixture_files.hpp"

namespace {

constexpr double kModernGoldenTol = 1e-9;


void check_stage(const attn::Trace& t, attn::StageKind kind, int head, const nlohmann::json& want,
                 const std::string& what) {
  const attn::Stage* st = t.find(kind, head);
  REQUIRE_MESSAGE(st != nullptr, what);
  const ref::Worst worst = ref::worst_element(st->value, ref::matrix_of(want));
  INFO(ref::describe(what, worst));
  CHECK(ref::within(worst, kModernGoldenTol));
}

void check_fixture(const std::string& name) {
  const std::string text = ref::read_text(std::string(ATTNVIZ_FIXTURES_DIR) + "/modern_" + name + ".json");
  const attn::io::ScenarioFile file = attn::io::parse_scenario(text);
  const nlohmann::json expected = nlohmann::json::parse(text).at("expected");
  const attn::Trace t = attn::compute_trace(file.scenario);
  const attn::Dims& d = t.dims;
  for (int h = 0; h < d.n_heads; ++h) {
    const std::string head = " head " + std::to_string(h);
    check_stage(t, attn::StageKind::weights, h, expected.at("weights")[(size_t)h], name + ": weights" + head);
    check_stage(t, attn::StageKind::head_output, h, expected.at("head_output")[(size_t)h], name + ": head_output" + head);
    if (expected.contains("q_rope"))
      check_stage(t, attn::StageKind::q_rope, h, expected.at("q_rope")[(size_t)h], name + ": q_rope" + head);
  }
  // Rotated keys, one per key/value head, held by the first head of its group.
  if (expected.contains("k_rope"))
    for (int g = 0; g < d.n_kv_heads; ++g)
      check_stage(t, attn::StageKind::k_rope, g * d.group(), expected.at("k_rope")[(size_t)g],
                  name + ": k_rope of key/value head " + std::to_string(g));
  check_stage(t, attn::StageKind::output, -1, expected.at("output"), name + ": output");
  // torch's token-by-token loop over a KV cache gives the same rows.
  if (expected.contains("decoded_output"))
    check_stage(t, attn::StageKind::output, -1, expected.at("decoded_output"), name + ": output against torch's decode loop");
}

}  // namespace

TEST_CASE("modern golden: RoPE as Llama pairs dimensions (rotate_half)") { check_fixture("rope_half"); }
TEST_CASE("modern golden: RoPE as GPT-J pairs dimensions, base 500000, from position 7") { check_fixture("rope_interleaved"); }
TEST_CASE("modern golden: partial rotary, half of each head") { check_fixture("rope_partial"); }
TEST_CASE("modern golden: grouped-query attention, 4 query heads on 2 key/value heads") { check_fixture("gqa"); }
TEST_CASE("modern golden: multi-query attention") { check_fixture("mqa"); }
TEST_CASE("modern golden: sliding window with an attention sink") { check_fixture("sliding_window"); }
TEST_CASE("modern golden: the strided sparse pattern") { check_fixture("strided"); }
TEST_CASE("modern golden: RoPE from position 3, against the decode loop") { check_fixture("decode_rope"); }
