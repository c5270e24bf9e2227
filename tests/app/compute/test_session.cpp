// The session's frame order, without a window: what an edit or a file read
// changes is in the trace, the explanation and the clock after one update,
// and no update pairs a new document with the old trace.
#include <doctest/doctest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "model/document/app_actions.hpp"
#include "model/document/scenario_edit.hpp"
#include "model/session/session.hpp"
#include "test_files.hpp"

namespace {

using model::AppState;
using model::CanvasMetrics;
using model::Session;
using model::SessionOptions;
namespace actions = model::actions;

AppState default_scene() {
  AppState s;
  s.builtin_text = test_files::builtin();
  actions::open_builtin(s);
  return s;
}

SessionOptions quiet(model::StartView start = {}) {
  SessionOptions o;
  o.watch_disk = false;
  o.start = std::move(start);
  return o;
}

CanvasMetrics canvas(double width = 1200) {
  CanvasMetrics c;
  c.width = width;
  c.height = 800;
  c.line_height = 20;
  return c;
}

double end_of_stage(const model::Timeline& tl, int index) {
  for (size_t k = 0; k < tl.stage_order.size(); ++k)
    if (tl.stage_order[k] == index) return tl.spans[k].end;
  return -1;
}

}  // namespace

TEST_CASE("session: an edit is in the trace and in the inspected cell's explanation after the same update") {
  Session session(default_scene(), quiet());
  session.update(0, canvas());
  REQUIRE(session.trace_model().has_trace());
  // Pin the first cell of the first stage (X, the input).
  session.state().pinned = model::CellRef{session.trace_model().trace().stages.front().ref(), 0, 0};
  session.update(0, canvas());
  REQUIRE(session.inspected() != nullptr);
  CHECK(session.inspected()->value == session.state().doc.scenario.x(0, 0));

  actions::apply_edit(session.state(), [](attn::Scenario& sc) { sc.x(0, 0) = 0.123; });
  session.update(0, canvas());
  CHECK(session.trace_model().trace().stages.front().value(0, 0) == 0.123);
  REQUIRE(session.inspected() != nullptr);
  CHECK(session.inspected()->value == 0.123);  // not last frame's explanation
}

TEST_CASE("session: a clock at the end stays at the end when the timeline grows, one in the middle stays put") {
  AppState state = default_scene();
  state.granularity = model::Granularity::Row;  // a token more is a row more to compute, a longer timeline
  Session session(std::move(state), quiet());
  session.update(0, canvas());
  const double total = session.trace_model().timeline().total;
  REQUIRE(total > 0);
  CHECK(session.state().clock.t == doctest::Approx(total));  // the default start: the finished picture
  actions::apply_edit(session.state(),
                      [](attn::Scenario& sc) { model::edit::insert_token(sc, model::edit::Sequence::Queries, 1, "new"); });
  session.update(0, canvas());
  const double grown = session.trace_model().timeline().total;
  REQUIRE(grown > total);
  CHECK(session.state().clock.t == doctest::Approx(grown));

  session.state().clock.t = grown / 2;
  actions::apply_edit(session.state(),
                      [](attn::Scenario& sc) { model::edit::insert_token(sc, model::edit::Sequence::Queries, 1, "newer"); });
  session.update(0, canvas());
  CHECK(session.trace_model().timeline().total > grown);
  CHECK(session.state().clock.t == doctest::Approx(grown / 2));
}

TEST_CASE("session: the start view puts the clock where its stage is computed, a stage that is not there is said once") {
  Session at_weights(default_scene(), quiet({"weights", std::nullopt}));
  at_weights.update(0, canvas());
  const attn::Trace& trace = at_weights.trace_model().trace();
  int index = trace.index_of({attn::StageKind::weights, -1});
  if (index < 0) index = trace.index_of({attn::StageKind::weights, 0});
  REQUIRE(index >= 0);
  const double expected = end_of_stage(at_weights.trace_model().timeline(), index);
  REQUIRE(expected > 0);
  CHECK(expected < at_weights.trace_model().timeline().total);
  CHECK(at_weights.state().clock.t == doctest::Approx(expected));
  CHECK(at_weights.take_start_problem().empty());

  Session nowhere(default_scene(), quiet({"no_such_stage", std::nullopt}));
  nowhere.update(0, canvas());
  const std::string problem = nowhere.take_start_problem();
  CHECK(problem.find("no_such_stage") != std::string::npos);
  CHECK(nowhere.take_start_problem().empty());
  CHECK(nowhere.state().clock.t == doctest::Approx(nowhere.trace_model().timeline().total));
}

TEST_CASE("session: a file read in the background becomes the document and its trace in one update") {
  const std::filesystem::path dir = test_files::fresh_folder("session_open");
  const std::string path = (dir / "mary.json").string();
  std::ofstream(path) << test_files::read(std::string(ATTNVIZ_ASSETS_DIR) + "/scenarios/mary_gave_susan.json");

  Session session(default_scene(), quiet());
  session.update(0, canvas());
  const int before = session.trace_model().trace().dims.n_q;
  actions::request_background_open(session.state(), path);
  bool arrived = false;
  for (int i = 0; i < 2000 && !arrived; ++i) {
    session.update(0.016, canvas());
    const int doc_n = static_cast<int>(session.state().doc.scenario.x.rows());
    // Every frame: the trace the views get is of the document they show.
    REQUIRE(session.trace_model().has_trace());
    CHECK(session.trace_model().trace().dims.n_q == doc_n);
    arrived = session.state().path == path && !session.opening();
    if (!arrived) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  REQUIRE(arrived);
  CHECK(session.trace_model().trace().dims.n_q != before);
  CHECK(session.layout().grids.size() > 0);
}
