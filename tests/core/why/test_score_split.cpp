// attn::split_score against PyTorch (tests/fixtures/why/score_split.json,
// written by tests/fixtures/make_why_fixtures.py): each dimension's product,
// each rotary pair's content and turned term (torch takes them as complex
// products, attnviz from the rotated rows), the pair's term at other
// distances, and the unrotated rest. Tolerance: 1e-9 × max(1, |torch|) per
// value, and the parts must add up to the trace's own score within 1e-9.
// A failure names the worst value.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "attn/attn.hpp"
#include "attn/io/scenario_file.hpp"
#include "attn/why/score_split.hpp"
#include "fixture_files.hpp"
#include "why/worst_value.hpp"

namespace {

constexpr double kWhyTol = 1e-9;

using why_test::WorstValue;

nlohmann::json score_fixture() {
  return nlohmann::json::parse(ref::read_text(std::string(ATTNVIZ_FIXTURES_DIR) + "/why/score_split.json"));
}

void check_scene(const std::string& name, const nlohmann::json& cells, const nlohmann::json& distances) {
  const auto file = attn::io::parse_scenario(ref::read_text(std::string(ATTNVIZ_FIXTURES_DIR) + "/" + name + ".json"));
  const attn::Trace trace = attn::compute_trace(file.scenario);
  WorstValue worst;
  for (const auto& cell : cells) {
    const int h = cell.at("head"), i = cell.at("query"), j = cell.at("key");
    const std::string at = name + " head " + std::to_string(h) + " [" + std::to_string(i) + "," + std::to_string(j) + "]";
    const attn::ScoreSplit s = attn::split_score(trace, file.scenario, h, i, j);
    worst.see(at + " score", s.score, cell.at("score"));
    double sum = 0;
    REQUIRE(s.by_dimension.size() == cell.at("dims").size());
    for (const attn::DimensionTerm& d : s.by_dimension) {
      worst.see(at + " dim " + std::to_string(d.dim), d.term, cell.at("dims")[static_cast<std::size_t>(d.dim)]);
      sum += d.term;
    }
    // The dimensions come largest first.
    for (std::size_t n = 1; n < s.by_dimension.size(); ++n)
      CHECK(std::abs(s.by_dimension[n - 1].term) >= std::abs(s.by_dimension[n].term));
    CHECK_MESSAGE(std::abs(sum - s.score) <= kWhyTol * std::max(1.0, std::abs(s.score)), at, ": dimensions sum to ", sum);
    REQUIRE(s.by_rope.has_value() == cell.contains("pairs"));
    if (!s.by_rope) continue;
    const attn::RopeSplit& r = *s.by_rope;
    CHECK(r.distance == i - j);
    REQUIRE(r.pairs.size() == cell.at("pairs").size());
    double pair_sum = r.unrotated;
    worst.see(at + " unrotated", r.unrotated, cell.at("unrotated"));
    for (const attn::RopePairTerm& p : r.pairs) {
      const auto& want = cell.at("pairs")[static_cast<std::size_t>(p.pair)];
      const std::string pair = at + " pair " + std::to_string(p.pair);
      CHECK(p.dim_a == want.at("dims")[0].get<int>());
      CHECK(p.dim_b == want.at("dims")[1].get<int>());
      worst.see(pair + " θ", p.theta, want.at("theta"));
      worst.see(pair + " content", p.content, want.at("content"));
      worst.see(pair + " term", p.term, want.at("term"));
      for (std::size_t d = 0; d < distances.size(); ++d)
        worst.see(pair + " at distance " + std::to_string(distances[d].get<int>()),
                  p.at_distance(distances[d].get<double>()), want.at("by_distance")[d]);
      pair_sum += p.term;
    }
    CHECK_MESSAGE(std::abs(pair_sum - s.score) <= kWhyTol * std::max(1.0, std::abs(s.score)), at,
                  ": pairs and the unrotated rest sum to ", pair_sum);
    CHECK(std::abs(r.content() + r.position() - s.score) <= kWhyTol * std::max(1.0, std::abs(s.score)));
  }
  INFO(worst.text());
  CHECK(worst.ok());
}

}  // namespace

TEST_CASE("why: a score split by dimension and by rotary pair matches PyTorch") {
  const nlohmann::json f = score_fixture();
  const nlohmann::json& scenes = f.at("scenes");
  REQUIRE(scenes.size() == 5);
  for (const auto& [name, cells] : scenes.items()) {
    INFO(name);
    check_scene(name, cells, f.at("distances"));
  }
}

TEST_CASE("why: a score split refuses additive scores and cells the trace lacks") {
  attn::Scenario s;
  s.x = attn::Mat::Random(3, 4);
  const attn::Trace t = attn::compute_trace(s);
  CHECK_THROWS_WITH_AS(attn::split_score(t, s, 1, 0, 0), "head 1 does not exist", std::out_of_range);
  CHECK_THROWS_WITH_AS(attn::split_score(t, s, 0, 3, 0), "cell [3,0] is outside the 3×3 scores", std::out_of_range);
  CHECK_THROWS_AS(attn::split_score(t, s, 0, 0, -1), std::out_of_range);
  s.score = attn::ScoreFn::Additive;
  const attn::Trace additive = attn::compute_trace(s);
  CHECK_THROWS_AS(attn::split_score(additive, s, 0, 0, 0), std::invalid_argument);
}

TEST_CASE("why: with the same query and key at distance 0, RoPE turns nothing") {
  // content is the term as if both sat at one position: on the diagonal the
  // turned term equals it, and position() is 0.
  const auto file = attn::io::parse_scenario(ref::read_text(std::string(ATTNVIZ_FIXTURES_DIR) + "/modern_rope_half.json"));
  const attn::Trace trace = attn::compute_trace(file.scenario);
  const attn::ScoreSplit s = attn::split_score(trace, file.scenario, 0, 2, 2);
  REQUIRE(s.by_rope);
  CHECK(std::abs(s.by_rope->position()) <= 1e-12);
  for (const attn::RopePairTerm& p : s.by_rope->pairs) CHECK(std::abs(p.at_distance(0) - p.content) <= 1e-12);
  CHECK(s.scale == doctest::Approx(1.0 / std::sqrt(static_cast<double>(trace.dims.d_k))));
}
