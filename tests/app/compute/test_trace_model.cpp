// The derived model: recompute only on a new revision, keep the last good
// trace on invalid input with a message, and the explanation cache.
#include <doctest/doctest.h>

#include <cmath>

#include "attn/io/scenario_file.hpp"

#include <cmath>
#include <limits>

#include "scenes.hpp"
#include "model/explore/explain_cache.hpp"
#include "model/layout/layout.hpp"
#include "model/trace/trace_model.hpp"

TEST_CASE("trace model: recomputes only when the revision changes") {
  model::TraceModel m;
  attn::Scenario s = test_scenes::small_projected();
  CHECK(m.update(s, 1, 1, {}));
  CHECK(m.has_trace());
  CHECK(m.generation() == 1);
  s.x(0, 0) = 5;  // changed, but same revision: not recomputed
  CHECK_FALSE(m.update(s, 1, 1, {}));
  CHECK(m.trace().find(attn::StageKind::x)->value(0, 0) == doctest::Approx(0.1));
  CHECK(m.update(s, 1, 2, {}));
  CHECK(m.generation() == 2);
  CHECK(m.trace().find(attn::StageKind::x)->value(0, 0) == 5);
}

TEST_CASE("trace model: the layout generation moves only when the new trace lays out differently") {
  model::TraceModel m;
  attn::Scenario s = test_scenes::small_projected();
  s.tokens = {"the", "cat", "sat"};
  std::uint64_t revision = 0;
  m.update(s, 1, ++revision, {});
  const std::uint64_t first = m.layout_generation();
  s.x(0, 0) = 5;  // a value: the same stages, shapes, titles and labels
  s.heads[0].w_q(0, 0) = -2;
  REQUIRE(m.update(s, 1, ++revision, {}));
  CHECK(m.layout_generation() == first);
  CHECK(model::same_layout_inputs(m.trace(), attn::compute_trace(s)));
  s.tokens[0] = "renamed";  // a label: row labels change width
  REQUIRE(m.update(s, 1, ++revision, {}));
  CHECK(m.layout_generation() == first + 1);
  s.scale = attn::ScaleMode::None;  // a formula changes
  REQUIRE(m.update(s, 1, ++revision, {}));
  CHECK(m.layout_generation() == first + 2);
  attn::Scenario fewer = s;  // a shape changes
  fewer.x.conservativeResize(fewer.x.rows() - 1, Eigen::NoChange);
  fewer.tokens.pop_back();
  REQUIRE(m.update(fewer, 1, ++revision, {}));
  CHECK(m.layout_generation() == first + 3);
  CHECK_FALSE(model::same_layout_inputs(m.trace(), attn::compute_trace(s)));
  m.update(s, 2, 1, {});  // another document
  CHECK(m.layout_generation() > first + 3);
}

TEST_CASE("trace model: an invalid edit keeps the last good trace and says why") {
  model::TraceModel m;
  attn::Scenario s = test_scenes::small_projected();
  m.update(s, 1, 1, {});
  const double good = m.trace().find(attn::StageKind::weights, 0)->value(2, 0);
  s.heads[0].w_k.resize(2, 2);  // wrong shape
  CHECK_FALSE(m.update(s, 1, 2, {}));
  CHECK(m.has_trace());
  CHECK_FALSE(m.error().empty());
  CHECK(m.error().find("w_k") != std::string::npos);
  CHECK(m.trace().find(attn::StageKind::weights, 0)->value(2, 0) == good);

  attn::Scenario huge = test_scenes::small_projected();
  huge.x(0, 0) = 1e308;  // overflows during the computation
  m.update(huge, 1, 3, {});
  CHECK_FALSE(m.error().empty());
  CHECK(m.trace().find(attn::StageKind::weights, 0)->value(2, 0) == good);
  CHECK_FALSE(m.trace().find(attn::StageKind::weights, 0)->value.dense().hasNaN());

  CHECK(m.update(test_scenes::small_projected(), 1, 4, {}));  // fixed: error clears
  CHECK(m.error().empty());
}

TEST_CASE("trace model: the timeline follows granularity and head without recomputing") {
  model::TraceModel m;
  const attn::Scenario s = test_scenes::small_projected();
  m.update(s, 1, 1, {model::Granularity::Stage, -1});
  const size_t stage_steps = m.timeline().steps.size();
  const std::uint64_t gen = m.generation();
  m.update(s, 1, 1, {model::Granularity::Row, -1});
  CHECK(m.generation() == gen);
  CHECK(m.timeline().granularity == model::Granularity::Row);
  CHECK(m.timeline().steps.size() > stage_steps);
}

TEST_CASE("explain cache: computes once per cell and trace, survives vanished cells") {
  model::TraceModel m;
  const attn::Scenario s = test_scenes::small_projected();
  m.update(s, 1, 1, {});
  model::ExplainCache cache;
  const attn::Explanation* e = cache.get(m.trace(), m.scenario(), m.generation(), {attn::StageKind::scores, 0}, 1, 0);
  REQUIRE(e != nullptr);
  CHECK(e->value == doctest::Approx(m.trace().find(attn::StageKind::scores, 0)->value(1, 0)));
  cache.get(m.trace(), m.scenario(), m.generation(), {attn::StageKind::scores, 0}, 1, 0);
  CHECK(cache.computations() == 1);
  cache.get(m.trace(), m.scenario(), m.generation() + 1, {attn::StageKind::scores, 0}, 1, 0);
  CHECK(cache.computations() == 2);
  CHECK(cache.get(m.trace(), m.scenario(), m.generation(), {attn::StageKind::scores, 0}, 9, 0) == nullptr);
  CHECK(cache.get(m.trace(), m.scenario(), m.generation(), {attn::StageKind::alibi, 0}, 0, 0) == nullptr);
  CHECK(cache.split() == nullptr);  // no such cell, so no split either
}

TEST_CASE("explain cache: a score or weight cell comes with why its score has its value, and other cells without") {
  model::TraceModel m;
  const attn::Scenario s = test_scenes::small_projected();
  m.update(s, 1, 1, {});
  model::ExplainCache cache;
  REQUIRE(cache.get(m.trace(), m.scenario(), m.generation(), {attn::StageKind::weights, 0}, 2, 1) != nullptr);
  const attn::ScoreSplit* split = cache.split();
  REQUIRE(split != nullptr);
  CHECK(split->query == 2);
  CHECK(split->key == 1);
  CHECK(split->score == m.trace().find(attn::StageKind::scores, 0)->value(2, 1));
  REQUIRE(cache.get(m.trace(), m.scenario(), m.generation(), {attn::StageKind::q, 0}, 2, 1) != nullptr);
  CHECK(cache.split() == nullptr);  // Q is no queries × keys grid
}

TEST_CASE("explain cache: with RoPE, each pair's term over every distance, through its content and the score's own term") {
  model::TraceModel m;
  const attn::Scenario s = attn::io::load_scenario(std::string(ATTNVIZ_ASSETS_DIR) + "/scenarios/rope.json").scenario;
  m.update(s, 1, 1, {});
  model::ExplainCache cache;
  REQUIRE(cache.get(m.trace(), m.scenario(), m.generation(), {attn::StageKind::scores, 0}, 6, 3) != nullptr);
  const attn::ScoreSplit* split = cache.split();
  const model::RopeCurves* curves = cache.curves();
  REQUIRE(split != nullptr);
  REQUIRE(split->by_rope);
  REQUIRE(curves != nullptr);
  CHECK(curves->distance == 3);
  REQUIRE(curves->pairs.size() == split->by_rope->pairs.size());
  double largest = 0;
  for (std::size_t p = 0; p < curves->pairs.size(); ++p) {
    const model::RopeCurve& c = curves->pairs[p];
    const attn::RopePairTerm& t = split->by_rope->pairs[p];
    REQUIRE(c.term.size() == 8);  // distances 0..7: every key of 8 tokens
    CHECK(c.term[0] == doctest::Approx(t.content).epsilon(1e-12));
    CHECK(c.term[3] == doctest::Approx(t.term).epsilon(1e-12));
    // An independent check of the formula at distance 5: |q||k| cos(φ_q − φ_k + 5θ).
    CHECK(c.term[5] == doctest::Approx(t.q_norm * t.k_norm * std::cos(t.q_phase - t.k_phase + 5 * t.theta)).epsilon(1e-12));
    for (double v : c.term) largest = std::max(largest, std::abs(v));
  }
  CHECK(curves->largest == largest);
  // No RoPE, no curves.
  model::TraceModel plain;
  plain.update(test_scenes::small_projected(), 1, 1, {});
  REQUIRE(cache.get(plain.trace(), plain.scenario(), plain.generation(), {attn::StageKind::scores, 0}, 2, 1) != nullptr);
  CHECK(cache.curves() == nullptr);
}

