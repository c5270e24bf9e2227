// The background recompute of big scenes (TraceModel with a work threshold of
// 0, so every scene goes to the worker): the newest edit wins, superseded
// ones are never shown, the trace on screen is always exactly the trace of
// the scenario it claims (never a mix of two states), and cancel keeps the
// last good trace. No GL, no timing: the test waits on the model's state.
#include <doctest/doctest.h>

#include <atomic>
#include <limits>
#include <random>

#include "held_step.hpp"
#include "scenes.hpp"
#include "model/session/texel_step.hpp"
#include "model/trace/trace_model.hpp"

using test_scenes::big_scene;
using test_scenes::differs_from_fresh;

TEST_CASE("background recompute: the newest edit wins and the screen never mixes two states") {
  model::TraceModel m(0);  // every scene in the background
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

namespace {

// The model shows the whole trace of `s` (revision 1), computed in the background.
void show_whole(model::TraceModel& m, const attn::Scenario& s) {
  m.update(s, 1, 1, {});
  m.wait_idle();
  m.update(s, 1, 1, {});
}

// An edit of X (revision 2) whose background recompute the user stops.
void stop_an_edit_of_x(model::TraceModel& m, attn::Scenario& s) {
  s.x(0, 0) = 9;
  m.update(s, 1, 2, {});
  REQUIRE(m.computing());
  m.cancel();
  CHECK_FALSE(m.computing());
  m.wait_idle();
}

}  // namespace

TEST_CASE("background recompute: cancel keeps the last good trace and says so") {
  model::TraceModel m(0);
  attn::Scenario s = big_scene();
  show_whole(m, s);
  const std::uint64_t generation = m.generation();
  stop_an_edit_of_x(m, s);
  CHECK_FALSE(m.update(s, 1, 2, {}));  // a result that finished anyway is not installed
  CHECK(m.generation() == generation);
  CHECK(m.trace().find(attn::StageKind::x)->value(0, 0) != 9);
  CHECK(m.error().empty());  // a stop the user asked for is not an error
  CHECK(m.cancelled().find("Stopped") != std::string::npos);
  CHECK(m.stale());
  // The next edit computes again.
  s.x(0, 1) = 3;
  m.update(s, 1, 3, {});
  m.wait_idle();
  CHECK(m.update(s, 1, 3, {}));
  CHECK(m.trace().find(attn::StageKind::x)->value(0, 0) == 9);
  CHECK(m.error().empty());
  CHECK(m.cancelled().empty());
}

TEST_CASE("background recompute: Compute again after a cancel computes the same revision") {
  model::TraceModel m(0);
  attn::Scenario s = big_scene();
  show_whole(m, s);
  stop_an_edit_of_x(m, s);
  CHECK_FALSE(m.update(s, 1, 2, {}));  // the same revision: nothing more is computed by itself
  CHECK_FALSE(m.computing());
  REQUIRE_FALSE(m.cancelled().empty());
  m.compute_again();
  CHECK(m.cancelled().empty());
  m.update(s, 1, 2, {});
  CHECK(m.computing());
  m.wait_idle();
  CHECK(m.update(s, 1, 2, {}));
  CHECK_FALSE(m.stale());
  CHECK(m.trace().find(attn::StageKind::x)->value(0, 0) == 9);
  CHECK(differs_from_fresh(m.trace(), s) == "");
  m.compute_again();  // nothing was cancelled: nothing to do
  CHECK_FALSE(m.update(s, 1, 2, {}));
  CHECK_FALSE(m.computing());
}

TEST_CASE("background recompute: an edit that cannot be computed keeps the last good trace") {
  model::TraceModel m(0);
  attn::Scenario s = big_scene();
  show_whole(m, s);
  s.x(0, 0) = 1e308;  // overflows in the projections
  m.update(s, 1, 2, {});
  m.wait_idle();
  CHECK_FALSE(m.update(s, 1, 2, {}));
  CHECK(m.has_trace());
  CHECK_FALSE(m.error().empty());
  CHECK(m.stale());
  CHECK_FALSE(m.trace().find(attn::StageKind::weights, 0)->value.dense().hasNaN());
}

TEST_CASE("background recompute: while the next edit computes, the old edit's error is not shown as if it were its") {
  model::TraceModel m(0);
  attn::Scenario s = big_scene();
  show_whole(m, s);
  const double good = s.x(0, 0);
  s.x(0, 0) = 1e308;
  m.update(s, 1, 2, {});
  m.wait_idle();
  m.update(s, 1, 2, {});
  REQUIRE_FALSE(m.error().empty());
  REQUIRE_FALSE(m.offending().empty());
  s.x(0, 0) = good;  // the fix, computing in the background
  m.update(s, 1, 3, {});
  CHECK(m.error().empty());      // "cannot be computed" was about revision 2
  CHECK(m.offending().empty());  // and so were the cells it pointed at
  CHECK(m.stale());              // the grids are still the older trace, marked so
  m.wait_idle();
  m.update(s, 1, 3, {});
  CHECK(m.error().empty());
  CHECK_FALSE(m.stale());
}

TEST_CASE("background recompute: a new document never shows the old one's trace") {
  model::TraceModel m(0);
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

TEST_CASE("background recompute: edits installed one after another are each their own scenario's trace") {
  // Every install after the first copies the next edit into the storage of
  // an older snapshot (TraceModel::snapshot); a shape change must not keep
  // any of the old one.
  model::TraceModel m(0);
  attn::Scenario s = big_scene();
  std::uint64_t revision = 0;
  auto show = [&] {
    m.update(s, 1, ++revision, {});
    m.wait_idle();
    REQUIRE(m.update(s, 1, revision, {}));
    CHECK(scenario_difference(m.scenario(), s) == "");
    CHECK(differs_from_fresh(m.trace(), s) == "");
  };
  show();
  for (int e = 0; e < 6; ++e) {
    INFO("edit ", e);
    s.x(e, 2 * e) -= 1.5;
    s.heads[static_cast<size_t>(e % 4)].w_v(e, e) += 0.75;
    show();
  }
  s.x.conservativeResize(40, Eigen::NoChange);  // fewer tokens
  s.tokens.assign(40, "t");
  show();
  CHECK(m.trace().dims.n_q == 40);
  s.heads.pop_back();
  show();
  CHECK(m.trace().dims.n_heads == 3);
}

namespace {

// The texels a window would make itself for this trace, stage and colours.
std::vector<std::uint16_t> texels_made_here(const model::TraceModel& m, int stage, const model::ColourOptions& colour) {
  const std::vector<model::ColourScale> scales = model::colour_scales(m.trace(), colour, &m.row_ranges());
  return model::lut_texels(m.trace().stages[static_cast<size_t>(stage)], scales[static_cast<size_t>(stage)], 1);
}

}  // namespace

TEST_CASE("background recompute: the texels of the large grids on screen are made after the trace, before it shows") {
  model::TexelStep step;  // outlives the model, which waits for it
  model::TraceModel m(0);
  m.set_follow_up(&step);
  model::ColourOptions colour;
  colour.contrast = model::Contrast::Row;
  step.set_request(model::TexelRequest{colour, 1});
  attn::Scenario s = big_scene();  // 96 tokens: the 96×96 grids are drawn from textures
  m.update(s, 1, 1, {});
  m.wait_idle();
  REQUIRE(m.update(s, 1, 1, {}));
  const model::PreparedTexels* p = step.made_for(m.trace());
  REQUIRE(p != nullptr);
  CHECK(p->colour == colour);
  int made = 0;
  for (size_t i = 0; i < m.trace().stages.size(); ++i) {
    const attn::Stage& st = m.trace().stages[i];
    INFO("stage ", st.id, " head ", st.head);
    const bool wanted = model::uses_texture(st.value.rows(), st.value.cols()) && (st.head < 0 || st.head == 1);
    const std::vector<std::uint16_t>* t = p->find(static_cast<int>(i));
    CHECK((t != nullptr) == wanted);
    if (!t) continue;
    const std::vector<std::uint16_t> here = texels_made_here(m, static_cast<int>(i), colour);
    REQUIRE(t->size() == here.size());
    size_t differing = 0, first = 0;
    for (size_t k = 0; k < here.size(); ++k)
      if ((*t)[k] != here[k] && differing++ == 0) first = k;
    INFO(differing << " texels differ, the first at " << first);
    CHECK(differing == 0);
    ++made;
  }
  CHECK(made >= 4);  // scores, scaled, masked and weights of head 1 at least
  step.release();
  CHECK(step.made_for(m.trace()) == nullptr);

  // A budget of one 96×96 grid: only the first large grid is made ahead.
  model::TexelRequest small{colour, 1};
  small.max_bytes = 96 * 96 * 2;
  step.set_request(small);
  s.x(0, 0) += 1;
  m.update(s, 1, 2, {});
  m.wait_idle();
  REQUIRE(m.update(s, 1, 2, {}));
  p = step.made_for(m.trace());
  REQUIRE(p != nullptr);
  int kept = 0;
  for (size_t i = 0; i < m.trace().stages.size(); ++i) kept += p->find(static_cast<int>(i)) != nullptr;
  CHECK(kept == 1);

  // Computed at once (a teaching scene), nothing is made ahead.
  model::TexelStep none;
  model::TraceModel now;
  now.set_follow_up(&none);
  none.set_request(model::TexelRequest{colour, 1});
  REQUIRE(now.update(s, 1, 1, {}));
  CHECK(none.made_for(now.trace()) == nullptr);
}

using test_steps::HeldStep;

TEST_CASE("background recompute: a trace waits for its follow-up step, and a newer edit drops the one waiting") {
  HeldStep step;
  model::TraceModel m(0);
  m.set_follow_up(&step);
  attn::Scenario s = big_scene();
  m.update(s, 1, 1, {});
  m.wait_idle();
  CHECK(step.begun == 2);  // nothing on screen: for the preview of a head, then for the whole trace
  CHECK_FALSE(m.update(s, 1, 1, {}));  // the step has not ended: nothing shown yet
  CHECK_FALSE(m.has_trace());
  CHECK(m.computing());
  CHECK(m.progress() == 1.0);  // every head is computed
  step.done = true;
  REQUIRE(m.update(s, 1, 1, {}));
  REQUIRE(m.has_trace());
  CHECK(&m.trace() == step.last.load());
  CHECK_FALSE(m.computing());
  CHECK(differs_from_fresh(m.trace(), m.scenario()) == "");

  // An edit whose trace waits for its step, then another edit: the first is never shown.
  const std::uint64_t shown = m.generation();
  s.x(0, 0) += 1;
  m.update(s, 1, 2, {});
  m.wait_idle();
  CHECK(step.begun == 3);  // an edit has a trace to update from: no preview
  s.x(0, 1) -= 1;
  m.update(s, 1, 3, {});
  CHECK(step.cancelled == 1);
  CHECK(m.generation() == shown);
  m.wait_idle();
  CHECK(step.begun == 4);
  step.done = true;
  REQUIRE(m.update(s, 1, 3, {}));
  CHECK(m.generation() == shown + 1);  // one trace installed: the newest
  CHECK(m.scenario().x(0, 1) == s.x(0, 1));
  CHECK(differs_from_fresh(m.trace(), m.scenario()) == "");

  // An edit that cannot be computed waits for nothing: its error shows at once, over the last good trace.
  s.x(0, 0) = std::numeric_limits<double>::quiet_NaN();
  m.update(s, 1, 4, {});
  m.wait_idle();
  m.update(s, 1, 4, {});
  CHECK(step.begun == 4);
  CHECK_FALSE(m.error().empty());
  CHECK_FALSE(m.computing());
}

TEST_CASE("texels made ahead: a cancelled recompute stops making them") {
  model::TraceModel m;
  attn::Scenario s = big_scene();
  REQUIRE(m.update(s, 1, 1, {}));
  std::atomic<bool> cancel{true};
  CHECK_THROWS_AS(model::prepare_texels(m.trace(), m.row_ranges(), model::TexelRequest{}, &cancel), attn::Cancelled);
  cancel = false;
  const model::PreparedTexels p = model::prepare_texels(m.trace(), m.row_ranges(), model::TexelRequest{}, &cancel);
  CHECK(p.find(m.trace().index_of({attn::StageKind::weights, 3})) != nullptr);  // head -1: every head's grids
}

TEST_CASE("background recompute: an X edit frees the old trace's scores, which still read the same until replaced") {
  // 1024 tokens: each head's scores are 8 MB, the size from which a trace
  // kept on screen during a full recompute drops them (TraceModel).
  const attn::Scenario s = big_scene(1024, 8, 2, 4, 5);
  model::TraceModel m(0);
  m.update(s, 1, 1, {});
  m.wait_idle();
  m.update(s, 1, 1, {});
  REQUIRE(m.has_trace());
  const std::uint64_t shown = m.generation();
  const double weight = m.trace().find(attn::StageKind::weights, 1)->value(1000, 3);
  const std::weak_ptr<const attn::Mat> old_scores = m.trace().find(attn::StageKind::scores, 1)->value.shared();
  CHECK(m.trace().find(attn::StageKind::scores, 1)->value.on_demand() == nullptr);

  // An X edit: the trace on screen is the same one (same generation, stale)
  // with its scores made on demand; the full one goes to the worker to free.
  attn::Scenario next = s;
  next.x(500, 2) += 1;
  m.update(next, 1, 2, {});
  CHECK(m.generation() == shown);
  CHECK(m.stale());
  for (int h = 0; h < 2; ++h) {
    const auto& on_demand = m.trace().find(attn::StageKind::scores, h)->value.on_demand();
    REQUIRE(on_demand != nullptr);
    CHECK_FALSE(on_demand->made());
  }
  m.wait_idle();
  CHECK(old_scores.expired());  // freed while the new trace was computed
  CHECK(m.trace().find(attn::StageKind::weights, 1)->value(1000, 3) == weight);  // made again: the same bits
  CHECK(m.trace().find(attn::StageKind::scores, 1)->value.on_demand()->made());
  CHECK_FALSE(m.trace().find(attn::StageKind::scores, 0)->value.on_demand()->made());  // head 0 was not read
  CHECK(m.update(next, 1, 2, {}));
  CHECK(differs_from_fresh(m.trace(), next) == "");
  CHECK(m.trace().find(attn::StageKind::scores, 0)->value.on_demand() == nullptr);  // a fresh trace keeps its scores

  // A W_Q edit reuses the other head's matrices: nothing is dropped.
  attn::Scenario wq = next;
  wq.heads[0].w_q(1, 1) += 1;
  m.update(wq, 1, 3, {});
  CHECK(m.trace().find(attn::StageKind::scores, 1)->value.on_demand() == nullptr);
  m.wait_idle();
  m.update(wq, 1, 3, {});

  // Cancelled, an X edit leaves the trace before it on screen, whole to read.
  attn::Scenario again = wq;
  again.x(7, 7) -= 2;
  m.update(again, 1, 4, {});
  m.cancel();
  m.wait_idle();
  CHECK(m.trace().find(attn::StageKind::scores, 0)->value.on_demand() != nullptr);
  CHECK(differs_from_fresh(m.trace(), wq) == "");
}

TEST_CASE("background recompute: a stopped edit that made a small scene big keeps room for its line") {
  const attn::Scenario big = big_scene();
  model::TraceModel m(model::estimated_work(big) / 2);  // the small scene at once, the big one in the background
  const attn::Scenario small = test_scenes::small_projected();
  m.update(small, 1, 1, {});
  REQUIRE(m.has_trace());
  CHECK_FALSE(m.computes_in_background());
  m.update(big, 1, 2, {});
  CHECK(m.computing());
  m.cancel();
  m.wait_idle();
  m.update(big, 1, 2, {});
  CHECK(m.scenario().x.rows() == small.x.rows());  // the small scene's trace is still shown
  CHECK_FALSE(m.cancelled().empty());
  CHECK(m.computes_in_background());  // the status panel keeps the room its Stopped line needs
}

TEST_CASE("a long trace on screen with one head shown keeps only that head's scores, the others made when read") {
  // 1024 tokens, 3 heads: 8 MB of scores a head. With head 1 on screen the
  // trace holds head 1's; heads 0 and 2 are made again, bit for bit, when read.
  const attn::Scenario s = big_scene(1024, 8, 3, 4, 6);
  model::TraceModel m(0);
  model::TimelineKey one_head;
  one_head.head = 1;
  m.update(s, 1, 1, one_head);
  m.wait_idle();
  m.update(s, 1, 1, one_head);
  REQUIRE(m.has_trace());
  REQUIRE_FALSE(m.stale());
  CHECK(m.trace().find(attn::StageKind::scores, 1)->value.on_demand() == nullptr);
  for (int h : {0, 2}) {
    INFO("head " << h);
    const auto& on_demand = m.trace().find(attn::StageKind::scores, h)->value.on_demand();
    REQUIRE(on_demand != nullptr);
    CHECK_FALSE(on_demand->made());
  }
  CHECK(differs_from_fresh(m.trace(), s) == "");  // reads every stage: the made scores equal a fresh trace's
  CHECK(m.trace().find(attn::StageKind::scores, 0)->value.on_demand()->made());
  // Every head side by side keeps every head's scores.
  model::TraceModel all(0);
  all.update(s, 1, 1, {});
  all.wait_idle();
  all.update(s, 1, 1, {});
  for (int h = 0; h < 3; ++h) CHECK(all.trace().find(attn::StageKind::scores, h)->value.on_demand() == nullptr);
}
