// The background recompute of big scenes (TraceModel with a work threshold of
// 0, so every scene goes to the worker): the newest edit wins, superseded
// ones are never shown, the trace on screen is always exactly the trace of
// the scenario it claims (never a mix of two states), and cancel keeps the
// last good trace. No GL, no timing: the test waits on the model's state.
#include <doctest/doctest.h>

#include <random>

#include "scenes.hpp"
#include "viz/trace_model.hpp"

namespace {

// The largest difference between a trace and a fresh full one, and where.
std::string differs_from_fresh(const attn::Trace& t, const attn::Scenario& s) {
  const attn::Trace fresh = attn::compute_trace(s);
  if (t.stages.size() != fresh.stages.size()) return "stage count differs";
  for (size_t k = 0; k < t.stages.size(); ++k) {
    const attn::Mat a = t.stages[k].value.dense(), b = fresh.stages[k].value.dense();
    if (a.rows() != b.rows() || a.cols() != b.cols()) return fresh.stages[k].id + ": shape differs";
    const double worst = a.size() ? (a - b).cwiseAbs().maxCoeff() : 0.0;
    if (worst > 1e-12 || a.hasNaN() != b.hasNaN())
      return fresh.stages[k].id + " head " + std::to_string(fresh.stages[k].head) + " differs by " + std::to_string(worst);
  }
  return "";
}

attn::Scenario big_scene() {  // a few milliseconds of work, so edits overlap the worker
  std::mt19937 rng(3);
  std::normal_distribution<double> n;
  attn::Scenario s;
  s.x.resize(96, 32);
  for (Eigen::Index i = 0; i < s.x.size(); ++i) s.x.data()[i] = n(rng);
  for (int h = 0; h < 4; ++h) {
    attn::HeadWeights w{attn::Mat(32, 16), attn::Mat(32, 16), attn::Mat(32, 16)};
    for (attn::Mat* m : {&w.w_q, &w.w_k, &w.w_v})
      for (Eigen::Index i = 0; i < m->size(); ++i) m->data()[i] = n(rng) * 0.3;
    s.heads.push_back(w);
  }
  s.mask = attn::MaskKind::Causal;
  return s;
}

}  // namespace

TEST_CASE("background recompute: the newest edit wins and the screen never mixes two states") {
  viz::TraceModel m(0);  // every scene in the background
  attn::Scenario s = big_scene();
  std::uint64_t revision = 1;
  m.update(s, 1, revision, {});
  CHECK(m.computing());
  CHECK_FALSE(m.has_trace());  // nothing to show yet: no other document's grids
  m.wait_idle();
  CHECK(m.update(s, 1, revision, {}));
  REQUIRE(m.has_trace());
  CHECK_FALSE(m.computing());
  CHECK(differs_from_fresh(m.trace(), m.scenario()) == "");

  // Many quick edits of every kind, without waiting: whatever is on screen
  // is exactly the trace of the scenario it says it is.
  std::mt19937 rng(5);
  int checked = 0;
  for (int e = 0; e < 40; ++e) {
    switch (e % 3) {
      case 0: s.x(e % 96, e % 32) += 0.5; break;
      case 1: s.heads[static_cast<size_t>(e % 4)].w_q(e % 32, e % 16) -= 0.25; break;
      default: s.tokens.assign(96, "w" + std::to_string(e)); break;
    }
    m.update(s, 1, ++revision, {});
    CHECK(m.computing());
    CHECK(m.stale());  // the last good trace, marked as not the newest
    if (m.has_trace() && e % 5 == 0) {
      INFO("edit ", e);
      CHECK(differs_from_fresh(m.trace(), m.scenario()) == "");
      ++checked;
    }
  }
  const std::uint64_t before = m.generation();
  m.wait_idle();
  CHECK(m.update(s, 1, revision, {}));
  CHECK(m.generation() == before + 1);  // one install: superseded results were dropped
  CHECK_FALSE(m.stale());
  CHECK(scenario_difference(m.scenario(), s) == "");  // the newest edit, not an older one
  CHECK(differs_from_fresh(m.trace(), s) == "");
  CHECK(checked > 0);
}

TEST_CASE("background recompute: cancel keeps the last good trace and says so") {
  viz::TraceModel m(0);
  attn::Scenario s = big_scene();
  m.update(s, 1, 1, {});
  m.wait_idle();
  m.update(s, 1, 1, {});
  const std::uint64_t generation = m.generation();
  s.x(0, 0) = 9;
  m.update(s, 1, 2, {});
  REQUIRE(m.computing());
  m.cancel();
  CHECK_FALSE(m.computing());
  m.wait_idle();
  CHECK_FALSE(m.update(s, 1, 2, {}));  // a result that finished anyway is not installed
  CHECK(m.generation() == generation);
  CHECK(m.trace().find("x")->value(0, 0) != 9);
  CHECK(m.error().find("cancelled") != std::string::npos);
  // The next edit computes again.
  s.x(0, 1) = 3;
  m.update(s, 1, 3, {});
  m.wait_idle();
  CHECK(m.update(s, 1, 3, {}));
  CHECK(m.trace().find("x")->value(0, 0) == 9);
  CHECK(m.error().empty());
}

TEST_CASE("background recompute: an edit that cannot be computed keeps the last good trace") {
  viz::TraceModel m(0);
  attn::Scenario s = big_scene();
  m.update(s, 1, 1, {});
  m.wait_idle();
  m.update(s, 1, 1, {});
  s.x(0, 0) = 1e308;  // overflows in the projections
  m.update(s, 1, 2, {});
  m.wait_idle();
  CHECK_FALSE(m.update(s, 1, 2, {}));
  CHECK(m.has_trace());
  CHECK_FALSE(m.error().empty());
  CHECK(m.stale());
  CHECK_FALSE(m.trace().find("weights", 0)->value.dense().hasNaN());
}

TEST_CASE("background recompute: a new document never shows the old one's trace") {
  viz::TraceModel m(0);
  m.update(big_scene(), 1, 1, {});
  m.wait_idle();
  m.update(big_scene(), 1, 1, {});
  REQUIRE(m.has_trace());
  m.update(test_scenes::small_projected(), 2, 1, {});
  CHECK_FALSE(m.has_trace());
  m.wait_idle();
  CHECK(m.update(test_scenes::small_projected(), 2, 1, {}));
  CHECK(m.trace().dims.n_q == test_scenes::small_projected().x.rows());
}
