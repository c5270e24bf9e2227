// The Train view's model layer: the session runs the same steps as a
// Trainer called directly (so the worker adds no randomness), publishes a
// snapshot every kSnapshotEvery steps plus one where it paused, keeps the
// history bounded, and a snapshot's layer opened in the pipeline view is an
// ordinary scenario whose trace has the model's own attention weights.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>

#include "attn/compute/trace.hpp"
#include "model/document/app_actions.hpp"
#include "model/document/app_state.hpp"
#include "model/train/train_session.hpp"
#include "model/train/train_ui.hpp"
#include "model/train/train_view_model.hpp"

namespace {

attn::train::TrainConfig small_config() {
  attn::train::TrainConfig c = model::TrainUi::default_train_settings();
  c.task.length = 5;
  c.model.d_model = 16;
  c.model.n_heads = 2;
  c.batch = 8;
  c.held_out = 16;
  c.seed = 9;
  return c;
}

double max_difference(const attn::Mat& a, const attn::Mat& b) { return (a - b).cwiseAbs().maxCoeff(); }

}  // namespace

TEST_CASE("train session: steps on the worker match a Trainer stepped directly") {
  model::TrainSession session;
  REQUIRE(session.reset(small_config(), 25) == "");
  CHECK(session.snapshots().size() == 1);  // step 0: random weights
  CHECK(session.snapshots()[0].step == 0);
  session.start();
  session.wait_stopped();
  CHECK_FALSE(session.running());
  REQUIRE(session.steps() == 25);
  CHECK(session.losses().size() == 25);
  std::vector<int> steps;
  for (const model::TrainSnapshot& s : session.snapshots()) steps.push_back(s.step);
  CHECK(steps == std::vector<int>{0, 10, 20, 25});

  attn::train::Trainer direct(small_config());
  std::vector<double> losses;
  for (int i = 0; i < 25; ++i) losses.push_back(direct.step());
  for (size_t i = 0; i < losses.size(); ++i) CHECK(session.losses()[i] == losses[i]);
  const attn::train::Model& a = *session.snapshots().back().model;
  const attn::train::Model& b = direct.model();
  CHECK(max_difference(a.embed, b.embed) == 0);
  CHECK(max_difference(a.unembed, b.unembed) == 0);
  CHECK(session.snapshots().back().held_out.accuracy == direct.evaluate().accuracy);
}

TEST_CASE("train session: a run that reached its limit continues when the limit grows, reset starts over") {
  model::TrainSession session;
  REQUIRE(session.reset(small_config(), 12) == "");
  session.start();
  session.wait_stopped();
  CHECK(session.steps() == 12);
  session.start();  // at the limit: nothing happens
  session.wait_stopped();
  CHECK(session.steps() == 12);
  session.set_max_steps(30);
  session.start();
  session.wait_stopped();
  CHECK(session.steps() == 30);
  CHECK(session.snapshots().back().step == 30);
  REQUIRE(session.reset(small_config(), 12) == "");
  CHECK(session.steps() == 0);
  CHECK(session.snapshots().size() == 1);
}

TEST_CASE("train session: bad settings are refused with the reason and change nothing") {
  model::TrainSession session;
  REQUIRE(session.reset(small_config(), 10) == "");
  attn::train::TrainConfig bad = small_config();
  bad.model.n_heads = 3;  // does not divide d_model 16
  const std::string error = session.reset(bad, 10);
  CHECK(error.find("n_heads") != std::string::npos);
  CHECK(session.config().model.n_heads == 2);
  CHECK(session.snapshots().size() == 1);
}

TEST_CASE("train session: a long run keeps a bounded, evenly thinned history from step 0 to the newest") {
  attn::train::TrainConfig c = small_config();
  c.model.d_model = 8;
  c.model.n_layers = 1;
  c.batch = 2;
  c.held_out = 4;
  model::TrainSession session;
  const int steps = static_cast<int>(model::TrainSession::kMaxSnapshots) * model::TrainSession::kSnapshotEvery * 2 + 7;
  REQUIRE(session.reset(c, steps) == "");
  session.start();
  session.wait_stopped();
  const std::vector<model::TrainSnapshot>& s = session.snapshots();
  CHECK(s.size() <= model::TrainSession::kMaxSnapshots);
  CHECK(s.size() >= model::TrainSession::kMaxSnapshots / 2);
  CHECK(s.front().step == 0);
  CHECK(s.back().step == steps);
  for (size_t i = 1; i < s.size(); ++i) CHECK(s[i].step > s[i - 1].step);
}

TEST_CASE("train view model: grids are the snapshot's weights on the example, its layer opens as a scenario") {
  model::TrainSession session;
  REQUIRE(session.reset(small_config(), 20) == "");
  session.start();
  session.wait_stopped();
  const model::TrainGrids g = model::train_grids(session, -1, 3);
  REQUIRE(g.snapshot == static_cast<int>(session.snapshots().size()) - 1);
  CHECK(g.step == 20);
  REQUIRE(g.weights.size() == 2);
  REQUIRE(g.weights[0].size() == 2);
  CHECK(g.tokens.size() == static_cast<size_t>(session.held_out().tokens.cols()));
  CHECK(model::snapshot_at_or_before(session, 15) == 1);  // steps 0, 10, 20
  CHECK(model::snapshot_at_or_before(session, 20) == 2);
  // The grids' titles count layers from 0 like the Model view and `attn model`.
  CHECK(model::train_grid_title(0, 1) == "Layer 0, head 1");
  CHECK(model::train_grid_title(1, 3, true) == "L1 H3");
  const std::string best = model::best_head_line(g);
  CAPTURE(best);
  CHECK(best.find(": layer " + std::to_string(g.best.layer) + ", head " + std::to_string(g.best.head) + " (") !=
        std::string::npos);

  for (int layer = 0; layer < 2; ++layer) {
    CAPTURE(layer);
    const attn::io::ScenarioFile file = model::trained_layer_scene(session, -1, 3, layer);
    // Counted from 0, as the Train view's grids, `attn model` and PyTorch count.
    CHECK(file.title.find("model, layer " + std::to_string(layer) + " after") != std::string::npos);
    CHECK(file.title.find("20 steps") != std::string::npos);
    REQUIRE(attn::validate(file.scenario) == "");
    const attn::Trace t = attn::compute_trace(file.scenario);
    for (int h = 0; h < 2; ++h) {
      const attn::Mat w = t.find(attn::StageKind::weights, h)->value.dense();
      const double d = max_difference(w, g.weights[static_cast<size_t>(layer)][static_cast<size_t>(h)]);
      CHECK_MESSAGE(d <= 1e-12, "head " << h << " differs by " << d);
    }
  }
}

TEST_CASE("train view: opening a trained head asks before replacing unsaved edits, then shows that head") {
  model::TrainSession session;
  REQUIRE(session.reset(small_config(), 10) == "");
  model::AppState s;
  bool train_open = true;
  model::PendingAction a;
  a.kind = model::PendingAction::Kind::ShowScene;
  a.scene = std::make_shared<const attn::io::ScenarioFile>(model::trained_layer_scene(session, -1, 0, 1));
  a.label = "trained layer 1, step 0";
  a.head = 1;
  a.then = [&](model::AppState&) { train_open = false; };  // as the session's: the Train view gives way
  model::actions::request(s, a);  // an untouched document: shown at once
  CHECK_FALSE(train_open);
  CHECK(s.view.head == 1);
  CHECK(s.doc_label == "trained layer 1, step 0");
  CHECK(attn::scenario_difference(s.doc.scenario, a.scene->scenario) == "");

  s.doc.scenario.x(0, 0) += 1;  // an unsaved edit
  model::actions::changed(s);
  train_open = true;
  a.head = 0;
  model::actions::request(s, a);
  CHECK(s.confirm_discard);  // asks first
  CHECK(train_open);         // the follow-up waits for the answer
  model::actions::answer(s, model::actions::Answer::Discard);
  CHECK_FALSE(train_open);
  CHECK(s.view.head == 0);
}

TEST_CASE("train session: a loss that overflows stops the run with a message and keeps the last finite weights") {
  model::TrainSession session;
  attn::train::Trainer fresh(small_config());
  attn::train::Model model = fresh.model();
  model.embed *= 1e300;  // every score overflows: the first step's loss is not a number
  REQUIRE(session.resume(small_config(), model, 0, 20) == "");
  session.start();
  session.wait_stopped();
  CHECK(session.steps() == 0);
  CHECK(session.problem().find("overflowed") != std::string::npos);
  CHECK(session.problem().find("Lower the learning rate") != std::string::npos);
  for (double l : session.losses()) CHECK(std::isfinite(l));
  CHECK(session.snapshots().back().model->embed(0, 0) == model.embed(0, 0));  // the weights before the step
}

TEST_CASE("train view: numbers of a model that overflows read 'not a number', never nan or inf") {
  // The loader refuses such a model; a session given one directly is the
  // second line: every number the view prints must still be a word.
  model::TrainSession session;
  attn::train::Model model = attn::train::Trainer(small_config()).model();
  model.embed.setConstant(1e308);
  REQUIRE(session.resume(small_config(), model, 0, 20) == "");
  const model::TrainGrids g = model::train_grids(session, -1, 0);
  REQUIRE_FALSE(g.heads.empty());
  std::vector<std::string> shown = {model::train_status_line(session, -1), model::best_head_line(g)};
  for (const attn::train::HeadScore& h : g.heads) shown.push_back(model::head_score_text(&h));
  bool any_word = false;
  for (const std::string& text : shown) {
    CAPTURE(text);
    CHECK(text.find("nan") == std::string::npos);
    CHECK(text.find("inf") == std::string::npos);
    any_word = any_word || text.find("not a number") != std::string::npos;
  }
  CHECK(any_word);
  CHECK(model::train_number(std::nan(""), "%.2f") == "not a number");
  CHECK(model::train_number(-INFINITY, "%.2f") == "not a number");
  CHECK(model::train_number(0.125, "%.2f") == "0.12");
}

TEST_CASE("train view model: scrubbed back, the status line gives the shown snapshot's step, loss and accuracy") {
  model::TrainSession session;
  REQUIRE(session.reset(small_config(), 40) == "");
  session.start();
  session.wait_stopped();
  const std::vector<model::TrainSnapshot>& s = session.snapshots();
  REQUIRE(s.size() >= 3);
  const std::string newest = model::train_status_line(session, -1);
  CHECK(newest.find("Step 40 ") == 0);
  const model::TrainSnapshot& early = s[1];
  const std::string back = model::train_status_line(session, 1);
  CAPTURE(back);
  CHECK(back.find("Step " + std::to_string(early.step) + " shown (newest: 40)") == 0);
  char loss[32], accuracy[32];
  std::snprintf(loss, sizeof loss, "loss %.3f", early.loss);
  std::snprintf(accuracy, sizeof accuracy, "accuracy %.1f%%", 100 * early.held_out.accuracy);
  CHECK(back.find(loss) != std::string::npos);
  CHECK(back.find(accuracy) != std::string::npos);
}
