// Lessons that train a model: entering a "train" step opens the Train view
// with the step's settings (a fresh run only when they change), other steps
// close it, and a "head" question is judged on hand-made head scores:
// right, wrong (with both scores), not yet (stays open), and "Show me". The
// slides export sets the student's run aside and gives it back.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "attn/io/lesson_file.hpp"
#include "model/lessons/lesson_actions.hpp"
#include "model/train/train_commands.hpp"
#include "model/train/train_feature.hpp"

namespace {

using attn::train::HeadScore;
using Status = model::StepAnswer::Status;
using Command = model::TrainUi::Command;

attn::io::LessonFile train_lesson() {
  const std::string text = R"({
    "format": "attnviz-lesson", "version": 1, "title": "Training", "article": "Attention",
    "steps": [
      {"title": "pipeline", "text": "x", "scene": "default.json"},
      {"title": "train", "text": "x", "train": {"task": "induction", "layers": 2, "heads": 4, "steps": 600}},
      {"title": "which head", "text": "x", "train": {"task": "induction", "layers": 2, "heads": 4, "steps": 600},
       "question": {"kind": "head", "prompt": "Which head is the induction head?", "min_score": 0.5}},
      {"title": "smaller", "text": "x", "train": {"task": "induction", "layers": 1, "steps": 300}},
      {"title": "back", "text": "x"}
    ]})";
  return attn::io::parse_lesson(text, std::string(ATTNVIZ_ASSETS_DIR) + "/scenarios", "train_test");
}

// Two layers of two heads; layer 1, head 1 (0-based) copies best at 0.82.
std::vector<HeadScore> learned_scores() {
  return {{0, 0, 0.91, 0.05}, {0, 1, 0.10, 0.12}, {1, 0, 0.20, 0.31}, {1, 1, 0.08, 0.82}};
}

// The same heads early in training: the best induction score is 0.2.
std::vector<HeadScore> untrained_scores() {
  return {{0, 0, 0.30, 0.15}, {0, 1, 0.25, 0.20}, {1, 0, 0.22, 0.18}, {1, 1, 0.27, 0.12}};
}

// A started lesson on its head question (AppState remembers no progress between tests).
struct Taught {  // the document and the lessons' state, as the session keeps them
  model::AppState s;
  model::LessonState l;
};

Taught on_head_question() {
  model::AppState s;
  model::LessonState l;
  model::actions::start_lesson(s, l, train_lesson());
  model::actions::lesson_step(s, l, 2);
  return {std::move(s), std::move(l)};
}

}  // namespace

TEST_CASE("lesson train steps: the Train view opens with the step's settings and closes after") {
  model::AppState s;
  model::LessonState l;
  model::CompareState compare;
  model::TrainFeature train(l, compare);
  const model::TrainUi& ui = train.ui;
  model::actions::start_lesson(s, l, train_lesson());
  train.follow(l, s.document);
  CHECK_FALSE(ui.open);
  model::actions::lesson_step(s, l, 1);
  train.follow(l, s.document);
  CHECK(ui.open);
  CHECK(ui.max_steps == 600);
  CHECK(ui.settings.model.n_layers == 2);
  CHECK(ui.settings.task.kind == attn::train::TaskKind::Induction);
  // The lesson defaults equal the Train view's own, so the first train step
  // needs no fresh run; the student presses Train.
  CHECK(ui.command == Command::None);

  train.ui.command = Command::None;
  model::actions::lesson_step(s, l, 2);  // same settings: the run goes on
  train.follow(l, s.document);
  CHECK(ui.open);
  CHECK(ui.command == Command::None);

  model::actions::lesson_step(s, l, 3);  // one layer: a different model, so a fresh run
  train.follow(l, s.document);
  CHECK(ui.settings.model.n_layers == 1);
  CHECK(ui.max_steps == 300);
  CHECK(ui.command == Command::Reset);

  train.ui.command = Command::None;
  model::actions::lesson_step(s, l, 4);
  train.follow(l, s.document);
  CHECK_FALSE(ui.open);
  CHECK(ui.command == Command::None);

  train.ui.open = true;  // the student opens it on a step without training
  train.follow(l, s.document);
  CHECK(ui.open);  // followed once per step entered, not every frame
  model::actions::close_lesson(s, l);
  train.follow(l, s.document);
  CHECK(ui.open);  // leaving the lesson leaves the view as it is
}

TEST_CASE("lesson train steps: settings the student changed are replaced by a fresh run") {
  model::AppState s;
  model::LessonState l;
  model::CompareState compare;
  model::TrainFeature train(l, compare);
  train.ui.settings.model.n_heads = 8;
  model::actions::start_lesson(s, l, train_lesson());
  model::actions::lesson_step(s, l, 1);
  train.follow(l, s.document);
  CHECK(train.ui.settings.model.n_heads == 4);
  CHECK(train.ui.command == Command::Reset);
}

TEST_CASE("lesson head question: the head with the highest induction score is right") {
  auto [s, l] = on_head_question();
  CHECK(model::lesson_head_question_open(l));
  model::actions::answer_lesson_head(l, learned_scores(), 1, 1);
  CHECK(l.lesson->current_answer().status == Status::Right);
  CHECK(l.lesson->current_answer().why.find("82%") != std::string::npos);
  CHECK(l.lesson->current_answer().given == "layer 1, head 1");  // counted from 0, as the Train view labels it
  CHECK(l.lesson->can_next());
  CHECK_FALSE(model::lesson_head_question_open(l));
  // A head question hides nothing in the pipeline.
  const attn::Trace t = attn::compute_trace(s.doc.scenario);
  CHECK(model::hidden_stages(*l.lesson->current().question, t).empty());
}

TEST_CASE("lesson head question: another head is wrong, and the why compares the two scores") {
  auto [s, l] = on_head_question();
  model::actions::answer_lesson_head(l, learned_scores(), 0, 0);  // the previous-token head
  const model::StepAnswer& a = l.lesson->current_answer();
  CHECK(a.status == Status::Wrong);
  CHECK(a.attempts == 1);
  CHECK(a.why.find("layer 0, head 0") != std::string::npos);
  CHECK(a.why.find("5%") != std::string::npos);   // its induction score
  CHECK(a.why.find("82%") != std::string::npos);  // the best one's
  CHECK_FALSE(l.lesson->can_next());
  model::actions::answer_lesson_head(l, learned_scores(), 1, 1);  // a retry can still be right
  CHECK(l.lesson->current_answer().status == Status::Right);
  CHECK(l.lesson->current_answer().attempts == 2);
}

TEST_CASE("lesson head question: before any head learns the pattern, nothing is right or wrong yet") {
  auto [s, l] = on_head_question();
  model::actions::answer_lesson_head(l, untrained_scores(), 0, 1);  // the best head so far, but only 0.20
  const model::StepAnswer& a = l.lesson->current_answer();
  CHECK(a.status == Status::Open);
  CHECK(a.attempts == 0);
  CHECK(a.why.find("No head has learned the pattern yet") != std::string::npos);
  CHECK(a.why.find("20%") != std::string::npos);
  CHECK(model::lesson_head_question_open(l));
  // Exactly at the threshold counts as learned.
  std::vector<HeadScore> at_threshold = untrained_scores();
  at_threshold[3].induction = 0.5;
  const model::Verdict v = model::check_head(*l.lesson->current().question, at_threshold, 1, 1);
  CHECK(v.right);
  CHECK_FALSE(v.not_yet);
  // No snapshot at all: also not yet.
  CHECK(model::check_head(*l.lesson->current().question, {}, 0, 0).not_yet);
}

TEST_CASE("lesson head question: Show me names the head from the shown snapshot's scores") {
  auto [s, l] = on_head_question();
  l.shown_scores = learned_scores();
  model::actions::give_up_lesson(s, l);
  CHECK(l.lesson->current_answer().status == Status::GaveUp);
  CHECK(l.lesson->current_answer().why.find("layer 1, head 1") != std::string::npos);
  CHECK(l.lesson->can_next());
  model::actions::answer_lesson_head(l, learned_scores(), 0, 0);  // settled: later clicks change nothing
  CHECK(l.lesson->current_answer().status == Status::GaveUp);
}

TEST_CASE("lesson head question: clicks are ignored on steps that do not ask about heads") {
  model::AppState s;
  model::LessonState l;
  model::actions::start_lesson(s, l, train_lesson());
  model::actions::lesson_step(s, l, 1);
  CHECK_FALSE(model::lesson_head_question_open(l));
  model::actions::answer_lesson_head(l, learned_scores(), 1, 1);
  CHECK(l.lesson->current_answer().status == Status::Open);
  CHECK(l.lesson->current_answer().why.empty());
}

TEST_CASE("lesson train steps: a run set aside (the slides export) comes back whole, and its step does not reset it") {
  model::AppState s;
  model::LessonState l;
  model::CompareState compare;
  model::TrainFeature train(l, compare);
  model::actions::start_lesson(s, l, train_lesson());
  model::actions::lesson_step(s, l, 3);  // one layer, 300 steps
  train.follow(l, s.document);
  // The student changes the seed and trains a little: their own run.
  train.ui.settings.seed = 7;
  train.ui.max_steps = 20;
  train.ui.command = Command::Start;
  REQUIRE(model::apply_train_command(train.run(), train.ui).empty());
  train.run().wait_stopped();
  REQUIRE(train.run().steps() == 20);
  const model::TrainSession* theirs = &train.run();

  model::TrainFeature::SetAside aside = train.set_aside();
  CHECK_FALSE(train.run().has_run());  // the export trains on a session of its own
  CHECK(&train.run() != theirs);
  model::actions::lesson_step(s, l, 1);  // the export walks the steps
  train.follow(l, s.document);
  CHECK(train.ui.settings.model.n_layers == 2);

  model::actions::lesson_step(s, l, 3);  // and returns to the student's
  train.put_back(std::move(aside), l, s.document);
  CHECK(&train.run() == theirs);
  CHECK(train.run().steps() == 20);
  CHECK(train.ui.settings.seed == 7);
  train.follow(l, s.document);  // the step returned to is not entered again
  CHECK(train.ui.settings.seed == 7);
  CHECK(train.ui.command == Command::None);
}
