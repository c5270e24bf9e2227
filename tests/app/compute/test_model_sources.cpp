// A real model's pinned score split by source, through the session without
// a window, on the tiny GPT-2 of tests/data/hf: the Model view opens a
// layer in the pipeline, a score of it is pinned, and the split that comes
// back is split_score_by_source's for that layer, head and cell; an edit of
// the scene, or a cell that is no score, asks for none.
#include <doctest/doctest.h>

#include "attn/hf/checkpoint/checkpoint.hpp"
#include "attn/hf/why/score_sources.hpp"
#include "model/document/app_actions.hpp"
#include "model/hf/model_view_feature.hpp"
#include "model/session/session.hpp"
#include "test_files.hpp"

namespace {

const std::string kSourcesGpt2 = std::string(ATTNVIZ_HF_DATA_DIR) + "/gpt2";

model::CanvasMetrics sources_canvas() {
  model::CanvasMetrics c;
  c.width = 1200;
  c.height = 800;
  c.line_height = 20;
  return c;
}

// Frames until the model's background work has landed (at most `frames`).
void settle(model::Session& session, int frames = 40) {
  for (int i = 0; i < frames; ++i) {
    session.features().get<model::ModelViewFeature>().session.wait_idle();
    session.update(0, sources_canvas());
  }
}

}  // namespace

TEST_CASE("model sources: a pinned score of a layer the Model view opened is split by the model's residual stream") {
  model::AppState state;
  state.builtin_text = test_files::builtin();
  model::actions::open_builtin(state);
  model::SessionOptions options;
  options.watch_disk = false;
  model::Session session(std::move(state), options);
  model::ModelViewFeature& view = session.features().get<model::ModelViewFeature>();
  view.ui.folder = kSourcesGpt2;
  view.ui.text = "the cat sat on the mat because it was tired";
  view.ui.open_in_pipeline = attn::hf::HeadRef{1, 2};
  settle(session);
  REQUIRE(view.ui.in_pipeline.has_value());
  CHECK(view.ui.in_pipeline->layer == 1);
  CHECK(session.inspected_sources() == nullptr);  // nothing pinned yet
  CHECK(session.inspected_sources_status().empty());

  const int query = 9, key = 3;
  session.state().pinned = model::CellRef{{attn::StageKind::weights, 2}, query, key};
  session.update(0, sources_canvas());
  settle(session);
  const attn::SourceSplit* split = session.inspected_sources();
  REQUIRE_MESSAGE(split != nullptr, session.inspected_sources_status());
  const auto ck = attn::hf::Checkpoint::open(kSourcesGpt2);
  const attn::SourceSplit want = attn::hf::split_score_by_source(*ck, view.ui.in_pipeline->ids, 1, 2, query, key);
  CHECK(split->score == want.score);
  CHECK(split->key_sources == want.key_sources);
  CHECK((split->terms - want.terms).cwiseAbs().maxCoeff() == 0);
  // The score it explains is the scene's own, within float64's rounding.
  const attn::Stage* scores = session.trace_model().trace().find(attn::StageKind::scores, 2);
  REQUIRE(scores != nullptr);
  CHECK(split->score == doctest::Approx(scores->value(query, key)).epsilon(1e-9));
  CHECK(split->terms.sum() == doctest::Approx(split->score).epsilon(1e-9));

  // A cell that is no score of a head: nothing to split.
  session.state().pinned = model::CellRef{{attn::StageKind::x, -1}, 0, 0};
  session.update(0, sources_canvas());
  CHECK(session.inspected_sources() == nullptr);
  CHECK(session.inspected_sources_status().empty());
  // Once the scene is edited it is no longer the model's layer: no split.
  session.state().pinned = model::CellRef{{attn::StageKind::scores, 2}, query, key};
  model::actions::apply_edit(session.state(), [](attn::Scenario& sc) { sc.x(0, 0) += 1; });
  session.update(0, sources_canvas());
  CHECK(session.inspected_sources() == nullptr);
  CHECK(session.inspected_sources_status().empty());
}
