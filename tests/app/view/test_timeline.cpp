// Timeline construction and the clock: boundaries, determinism, monotone stepping.
#include <doctest/doctest.h>

#include "scenes.hpp"
#include "model/animation/clock.hpp"
#include "model/animation/timeline.hpp"

using namespace model;

TEST_CASE("timeline covers every computed stage in trace order, inputs excluded") {
  const attn::Trace tr = attn::compute_trace(test_scenes::small_projected());
  const Timeline tl = build_timeline(tr, Granularity::Stage);
  int computed = 0;
  for (const attn::Stage& s : tr.stages) computed += s.inputs.empty() ? 0 : 1;
  CHECK(static_cast<int>(tl.steps.size()) == computed);
  for (size_t i = 1; i < tl.steps.size(); ++i) {
    CHECK(tl.steps[i].stage > tl.steps[i - 1].stage);
    CHECK(tl.steps[i].start == doctest::Approx(tl.steps[i - 1].start + tl.steps[i - 1].duration));
  }
  CHECK(tl.total == doctest::Approx(tl.steps.back().start + tl.steps.back().duration));
  for (const Step& s : tl.steps) CHECK_FALSE(tr.stages[static_cast<size_t>(s.stage)].inputs.empty());
}

TEST_CASE("row and cell granularity refine the steps") {
  const attn::Trace tr = attn::compute_trace(test_scenes::small_projected());
  const Timeline st = build_timeline(tr, Granularity::Stage);
  const Timeline rows = build_timeline(tr, Granularity::Row);
  const Timeline cells = build_timeline(tr, Granularity::Cell);
  CHECK(rows.steps.size() > st.steps.size());
  CHECK(cells.steps.size() > rows.steps.size());
  // Scores (3x3) at cell granularity: one step per cell, row-major.
  const int scores = tr.index_of({attn::StageKind::scores, 0});
  std::vector<Step> score_steps;
  for (const Step& s : cells.steps)
    if (s.stage == scores) score_steps.push_back(s);
  REQUIRE(score_steps.size() == 9);
  CHECK(score_steps[4].row == 1);
  CHECK(score_steps[4].col == 1);
}

TEST_CASE("step_at: boundaries keep the finished step current, ends clamp") {
  const attn::Trace tr = attn::compute_trace(test_scenes::small_projected());
  const Timeline tl = build_timeline(tr, Granularity::Row);
  CHECK(step_at(tl, -5.0) == 0);
  CHECK(step_at(tl, 0.0) == 0);
  const Step& s1 = tl.steps[1];
  CHECK(step_at(tl, s1.start) == 0);  // end of step 0
  CHECK(step_at(tl, s1.start + 1e-6) == 1);
  CHECK(step_at(tl, tl.total + 10) == static_cast<int>(tl.steps.size()) - 1);
  Timeline empty;
  CHECK(step_at(empty, 0.0) == -1);
}

TEST_CASE("stepping forward is monotone and visits every step end, back reverses it") {
  const attn::Trace tr = attn::compute_trace(test_scenes::small_projected());
  const Timeline tl = build_timeline(tr, Granularity::Row);
  Clock clock;
  std::vector<double> forward;
  for (size_t i = 0; i < tl.steps.size() + 3; ++i) {
    const double before = clock.t;
    clock.step_forward(tl);
    CHECK(clock.t >= before);
    forward.push_back(clock.t);
  }
  CHECK(clock.t == doctest::Approx(tl.total));
  CHECK(forward[0] == doctest::Approx(tl.steps[0].duration));
  for (size_t i = tl.steps.size() - 1; i-- > 0;) {
    clock.step_back(tl);
    CHECK(clock.t == doctest::Approx(forward[i]));
  }
  clock.step_back(tl);
  CHECK(clock.t == 0.0);
}

TEST_CASE("clock plays at its speed, stops at the end, restarts on play") {
  const attn::Trace tr = attn::compute_trace(test_scenes::small_projected());
  const Timeline tl = build_timeline(tr, Granularity::Stage);
  Clock c;
  c.speed = 2.0;
  c.play(tl);
  c.tick(tl, 0.25);
  CHECK(c.t == doctest::Approx(0.5));
  c.tick(tl, 1e6);
  CHECK(c.t == doctest::Approx(tl.total));
  CHECK_FALSE(c.playing);
  c.play(tl);
  CHECK(c.t == 0.0);
  CHECK(c.playing);
  c.scrub(tl, -3);
  CHECK(c.t == 0.0);
  CHECK_FALSE(c.playing);
}

TEST_CASE("a head filter keeps shared stages and that head only") {
  attn::Scenario s = test_scenes::small_projected();
  s.heads.push_back(s.heads[0]);
  const attn::Trace tr = attn::compute_trace(s);
  const Timeline tl = build_timeline(tr, Granularity::Stage, TimelineFilter{1});
  for (const Step& st : tl.steps) {
    const int head = tr.stages[static_cast<size_t>(st.stage)].head;
    CHECK((head == -1 || head == 1));
  }
  CHECK(tl.steps.size() < build_timeline(tr, Granularity::Stage).steps.size());
}
