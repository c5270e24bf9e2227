// Animation evaluation is a pure function of (trace, timeline, t): it is
// deterministic, hides computed stages at t = 0, shows everything at the end,
// and shows the transitions' intermediate values.
#include <doctest/doctest.h>

#include <cmath>

#include "scenes.hpp"
#include "model/animation/animation.hpp"

using namespace model;

namespace {
int steps_before(const Timeline& tl, int stage) {
  int k = 0;
  while (tl.steps[static_cast<size_t>(k)].stage != stage) ++k;
  return k;
}
}  // namespace

TEST_CASE("t = 0 shows inputs only, the end shows every cell") {
  const attn::Trace tr = attn::compute_trace(test_scenes::small_projected());
  const Timeline tl = build_timeline(tr, Granularity::Stage);
  const Frame start = evaluate(tr, tl, 0.0);
  const Frame end = evaluate(tr, tl, tl.total);
  CHECK(end.finished);
  CHECK(end.active_stage == -1);
  for (size_t i = 0; i < tr.stages.size(); ++i) {
    const attn::Stage& s = tr.stages[i];
    const bool input = s.inputs.empty();
    CHECK(start.stage_progress[i] == (input ? 1.0f : 0.0f));
    CHECK(end.stage_progress[i] == 1.0f);
    const int idx = static_cast<int>(i);
    CHECK(cell_visibility(tr, tl, end, idx, 0, 0) == 1.0f);
    if (!input && idx != start.active_stage) CHECK(cell_visibility(tr, tl, start, idx, 0, 0) == 0.0f);
    CHECK(displayed_value(tr, end, idx, 0, 0) == s.value(0, 0));
  }
}

TEST_CASE("evaluate is deterministic and stage progress is monotone in t") {
  const attn::Trace tr = attn::compute_trace(test_scenes::small_projected());
  const Timeline tl = build_timeline(tr, Granularity::Row);
  std::vector<float> last(tr.stages.size(), 0.0f);
  for (double t = 0; t <= tl.total; t += tl.total / 97) {
    const Frame a = evaluate(tr, tl, t), b = evaluate(tr, tl, t);
    CHECK(a.stage_progress == b.stage_progress);
    CHECK(a.step == b.step);
    for (size_t i = 0; i < last.size(); ++i) {
      CHECK(a.stage_progress[i] >= last[i]);
      last[i] = a.stage_progress[i];
    }
  }
}

TEST_CASE("cell granularity: a score cell accumulates its products") {
  const attn::Trace tr = attn::compute_trace(test_scenes::small_projected());
  const Timeline tl = build_timeline(tr, Granularity::Cell);
  const int scores = tr.index_of({attn::StageKind::scores, 0});
  const int k = steps_before(tl, scores) + 4;  // cell (1, 1)
  const Step& st = tl.steps[static_cast<size_t>(k)];
  REQUIRE(st.row == 1);
  REQUIRE(st.col == 1);
  const attn::Mat q = tr.find(attn::StageKind::q, 0)->value.dense();
  const attn::Mat kk = tr.find(attn::StageKind::k, 0)->value.dense();
  // Halfway through the accumulation: one of the two products is in.
  const Frame mid = evaluate(tr, tl, st.start + st.duration * 0.5);
  CHECK(mid.active_stage == scores);
  CHECK(mid.transition == Transition::Sweep);
  CHECK(mid.terms_total == 2);
  CHECK(mid.terms_done == 1);
  CHECK(displayed_value(tr, mid, scores, 1, 1) == doctest::Approx(q(1, 0) * kk(1, 0)).epsilon(1e-12));
  // The query row and key row light up.
  bool q_row = false, k_row = false;
  for (const attn::SourceRegion& r : mid.highlights) {
    if (r.stage.id == attn::StageKind::q && r.row0 == 1 && r.row1 == 2 && r.col0 == 0 && r.col1 == 2) q_row = true;
    if (r.stage.id == attn::StageKind::k && r.row0 == 1 && r.row1 == 2) k_row = true;
  }
  CHECK(q_row);
  CHECK(k_row);
  // Cells after the active one are hidden, earlier ones shown.
  CHECK(cell_visibility(tr, tl, mid, scores, 2, 0) == 0.0f);
  CHECK(cell_visibility(tr, tl, mid, scores, 0, 2) == 1.0f);
  const Frame done = evaluate(tr, tl, st.start + st.duration);
  CHECK(displayed_value(tr, done, scores, 1, 1) == doctest::Approx(tr.find(attn::StageKind::scores, 0)->value(1, 1)));
}

TEST_CASE("softmax step exponentiates, then normalises") {
  const attn::Trace tr = attn::compute_trace(test_scenes::small_projected());
  const Timeline tl = build_timeline(tr, Granularity::Row);
  const int w = tr.index_of({attn::StageKind::weights, 0});
  const int k = steps_before(tl, w) + 2;  // row 2: nothing masked
  const Step& st = tl.steps[static_cast<size_t>(k)];
  const Frame first = evaluate(tr, tl, st.start + st.duration * 0.3);
  CHECK(first.transition == Transition::Softmax);
  const double e = attn::softmax_exp(tr, 0, 2, 1);
  // Shown numbers are always real intermediates: exp values, then weights.
  CHECK(displayed_value(tr, first, w, 2, 1) == doctest::Approx(e));
  const Frame end = evaluate(tr, tl, st.start + st.duration * 0.7);
  CHECK(displayed_value(tr, end, w, 2, 1) == doctest::Approx(tr.stages[static_cast<size_t>(w)].value(2, 1)));
  CHECK(std::abs(e - tr.stages[static_cast<size_t>(w)].value(2, 1)) > 1e-3);  // the two phases differ
}

TEST_CASE("scaling shows the raw score, then the scaled value, never a blend") {
  const attn::Trace tr = attn::compute_trace(test_scenes::small_projected());
  const Timeline tl = build_timeline(tr, Granularity::Row);
  const int sc = tr.index_of({attn::StageKind::scaled, 0});
  const Step& st = tl.steps[static_cast<size_t>(steps_before(tl, sc) + 1)];  // row 1
  for (double f = 0.05; f < 1.0; f += 0.1) {
    const double v = displayed_value(tr, evaluate(tr, tl, st.start + st.duration * f), sc, 1, 0);
    const bool real = v == tr.find(attn::StageKind::scores, 0)->value(1, 0) || v == tr.find(attn::StageKind::scaled, 0)->value(1, 0);
    CHECK_MESSAGE(real, "phase " << f << " shows " << v);
  }
}

TEST_CASE("masked cells blank at half-time of their step") {
  const attn::Trace tr = attn::compute_trace(test_scenes::small_projected());
  const Timeline tl = build_timeline(tr, Granularity::Stage);
  const int m = tr.index_of({attn::StageKind::masked, 0});
  const Step& st = tl.steps[static_cast<size_t>(steps_before(tl, m))];
  // Row 0 of a stage-level wave runs over the first half of the step.
  const Frame early = evaluate(tr, tl, st.start + st.duration * 0.1);
  CHECK(std::isfinite(displayed_value(tr, early, m, 0, 2)));
  const Frame late = evaluate(tr, tl, st.start + st.duration * 0.99);
  CHECK(std::isinf(displayed_value(tr, late, m, 0, 2)));
}
