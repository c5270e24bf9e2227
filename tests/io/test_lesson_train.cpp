// Lesson steps that train a model: the "train" block (its defaults, every
// field it sets, and a message naming the field for each kind of mistake)
// and the "head" question answered in the Train view.
#include <doctest/doctest.h>

#include <string>

#include "attn/io/lesson_file.hpp"

using attn::io::LessonFile;
using nlohmann::json;

namespace {

const std::string kScenes = std::string(ATTNVIZ_ASSETS_DIR) + "/scenarios";

json train_sample() {
  return json::parse(R"({
    "format": "attnviz-lesson", "version": 1, "title": "Training", "article": "Attention",
    "steps": [
      {"title": "intro", "text": "x", "scene": "default.json"},
      {"title": "train", "text": "x",
       "train": {"task": "induction", "length": 10, "symbols": 12, "layers": 1, "heads": 8,
                 "positions": "learned", "random_start": false, "seed": 7, "learning_rate": 0.01, "steps": 600}},
      {"title": "which head", "text": "x", "train": {"task": "induction"},
       "question": {"kind": "head", "prompt": "Which head?", "explain": "e", "min_score": 0.4}}
    ]})");
}

std::string problem_of(const json& doc) {
  try {
    attn::io::parse_lesson(doc.dump(), kScenes);
    return "";
  } catch (const attn::io::LessonError& e) {
    return e.problems.empty() ? "" : e.problems.front();
  } catch (const attn::io::FormatError& e) {
    return e.what();
  }
}

// The first problem after setting steps[1].train[key] = value.
std::string train_problem(const std::string& key, const json& value) {
  json doc = train_sample();
  doc["steps"][1]["train"][key] = value;
  return problem_of(doc);
}

}  // namespace

TEST_CASE("lesson train: every field of the block reaches the run's settings") {
  const LessonFile l = attn::io::parse_lesson(train_sample().dump(), kScenes);
  REQUIRE(l.steps.size() == 3);
  CHECK_FALSE(l.steps[0].train);
  REQUIRE(l.steps[1].train);
  const attn::train::TrainConfig& c = *l.steps[1].train;
  CHECK(c.task.kind == attn::train::TaskKind::Induction);
  CHECK(c.task.length == 10);
  CHECK(c.task.vocab == 12);
  CHECK(c.model.n_layers == 1);
  CHECK(c.model.n_heads == 8);
  CHECK(c.model.learned_positions);
  CHECK_FALSE(c.task.random_offset);
  CHECK(c.seed == 7);
  CHECK(c.learning_rate == doctest::Approx(0.01).epsilon(1e-12));
  CHECK(l.steps[1].train_steps == 600);
  // A train step without its own scene still carries the previous one over.
  CHECK(l.steps[1].scene.scenario.x.rows() == l.steps[0].scene.scenario.x.rows());
}

TEST_CASE("lesson train: only the task is required, the rest are the documented defaults") {
  const LessonFile l = attn::io::parse_lesson(train_sample().dump(), kScenes);
  REQUIRE(l.steps[2].train);
  const attn::train::TrainConfig& c = *l.steps[2].train;
  CHECK(c.task.length == 8);
  CHECK(c.task.vocab == 16);
  CHECK(c.model.n_layers == 2);
  CHECK(c.model.n_heads == 4);
  CHECK_FALSE(c.model.learned_positions);  // sinusoidal
  CHECK(c.task.random_offset);             // induction starts at a random place
  CHECK(c.seed == 1);
  CHECK(c.learning_rate == doctest::Approx(0.003).epsilon(1e-12));
  CHECK(l.steps[2].train_steps == 1500);
  CHECK(attn::train::validate_train_config(c).empty());
}

TEST_CASE("lesson train: each bad field is named with what was expected") {
  CHECK(train_problem("layers", 3) == "steps[1].train.layers: expected a whole number from 1 to 2, got 3");
  CHECK(train_problem("layers", "two") == "steps[1].train.layers: expected a whole number, got string \"two\"");
  CHECK(train_problem("heads", 3) ==
        "steps[1].train.heads: expected a number that divides the model width 64 (1, 2, 4, 8, 16, 32 or 64), got 3");
  CHECK(train_problem("heads", 0) == "steps[1].train.heads: expected a whole number from 1 to 64, got 0");
  CHECK(train_problem("length", 0) == "steps[1].train.length: expected a whole number from 1 to 64, got 0");
  CHECK(train_problem("length", 5000) == "steps[1].train.length: expected a whole number from 1 to 64, got 5000");
  CHECK(train_problem("symbols", 1) == "steps[1].train.symbols: expected a whole number from 2 to 64, got 1");
  CHECK(train_problem("symbols", 100000) == "steps[1].train.symbols: expected a whole number from 2 to 64, got 100000");
  CHECK(train_problem("positions", "rotary").rfind("steps[1].train.positions: ", 0) == 0);
  CHECK(train_problem("positions", "rotary").find("\"sinusoidal\"") != std::string::npos);
  CHECK(train_problem("random_start", 1) == "steps[1].train.random_start: expected true or false, got number 1");
  CHECK(train_problem("seed", -1) == "steps[1].train.seed: expected a whole number from 0 to 10000000, got -1");
  CHECK(train_problem("learning_rate", 0) == "steps[1].train.learning_rate: expected a number above 0 and at most 1, got 0");
  CHECK(train_problem("learning_rate", 5) == "steps[1].train.learning_rate: expected a number above 0 and at most 1, got 5");
  CHECK(train_problem("steps", 0) == "steps[1].train.steps: expected a whole number from 1 to 100000, got 0");
  CHECK(train_problem("steps", 200000) == "steps[1].train.steps: expected a whole number from 1 to 100000, got 200000");
  CHECK(train_problem("epochs", 3).rfind("steps[1].train.epochs: unknown key (expected ", 0) == 0);
}

TEST_CASE("lesson train: the task is required and must be one the engine knows") {
  json doc = train_sample();
  doc["steps"][1]["train"].erase("task");
  CHECK(problem_of(doc) == "steps[1].train.task: missing (the task to train on, e.g. \"induction\")");
  const std::string unknown = train_problem("task", "induktion");
  CHECK(unknown.rfind("steps[1].train.task: unknown task \"induktion\" (expected ", 0) == 0);
  CHECK(unknown.find("previous-token") != std::string::npos);
  doc = train_sample();
  doc["steps"][1]["train"] = json{{"task", "copy"}, {"random_start", true}};
  CHECK(problem_of(doc) == "steps[1].train.random_start: only the \"induction\" task has a random start");
  doc["steps"][1]["train"] = json{{"task", "copy"}};
  CHECK(problem_of(doc) == "");
  doc["steps"][1]["train"] = "induction";
  CHECK(problem_of(doc) == "steps[1].train: expected an object, got string \"induction\"");
}

TEST_CASE("lesson train: a head question reads its threshold and lives on a train step") {
  const LessonFile l = attn::io::parse_lesson(train_sample().dump(), kScenes);
  REQUIRE(l.steps[2].question);
  CHECK(l.steps[2].question->kind == attn::io::LessonQuestion::Kind::Head);
  CHECK(l.steps[2].question->min_score == doctest::Approx(0.4).epsilon(1e-12));
  CHECK(l.steps[2].question->hide.empty());
  CHECK(l.questions() == 1);

  json doc = train_sample();
  doc["steps"][2]["question"].erase("min_score");
  CHECK(attn::io::parse_lesson(doc.dump(), kScenes).steps[2].question->min_score == doctest::Approx(0.5).epsilon(1e-12));

  doc = train_sample();
  doc["steps"][2].erase("train");
  CHECK(problem_of(doc) ==
        "steps[2].question.kind: a \"head\" question is answered by clicking a head in the Train view, so the step needs a "
        "\"train\" block");
  doc = train_sample();
  doc["steps"][2]["question"]["min_score"] = 1.5;
  CHECK(problem_of(doc) == "steps[2].question.min_score: expected a share of attention from 0 to 1, got 1.5");
  doc = train_sample();
  doc["steps"][2]["question"]["hide"] = json::array({"weights"});
  CHECK(problem_of(doc).rfind("steps[2].question.hide: unknown key", 0) == 0);
}

TEST_CASE("lesson train: the shipped lesson on training checks clean, with a head question on a train step") {
  const LessonFile l = attn::io::load_lesson(std::string(ATTNVIZ_ASSETS_DIR) + "/lessons/06_watching_attention_learn.json");
  int train_steps = 0, head_questions = 0;
  for (const attn::io::LessonStep& s : l.steps) {
    train_steps += s.train ? 1 : 0;
    if (s.question && s.question->kind == attn::io::LessonQuestion::Kind::Head) {
      ++head_questions;
      REQUIRE(s.train);
      CHECK(s.train->task.kind == attn::train::TaskKind::Induction);
      CHECK(s.train->model.n_layers == 2);
      CHECK(s.train->task.random_offset);
    }
  }
  CHECK(train_steps >= 2);
  CHECK(head_questions == 1);
}

TEST_CASE("lesson train: the shipped lesson's run forms the induction head its question asks for, in layer 1") {
  // The lesson promises the student a head to click within its run and says
  // it appears in layer 1 (the second; layers count from 0 as the Train view
  // labels them); this trains its exact settings to check both.
  const LessonFile l = attn::io::load_lesson(std::string(ATTNVIZ_ASSETS_DIR) + "/lessons/06_watching_attention_learn.json");
  const attn::io::LessonStep* asked = nullptr;
  for (const attn::io::LessonStep& s : l.steps)
    if (s.question && s.question->kind == attn::io::LessonQuestion::Kind::Head) asked = &s;
  REQUIRE(asked);
  attn::train::TrainConfig config = *asked->train;
  config.threads = 2;
  attn::train::Trainer trainer(config);
  attn::train::HeadScore best = attn::train::best_induction_head(trainer.head_scores());
  CHECK(best.induction < asked->question->min_score);  // untrained, the question is "not yet"
  while (trainer.steps_done() < asked->train_steps && best.induction < asked->question->min_score) {
    for (int k = 0; k < 50; ++k) trainer.step();
    best = attn::train::best_induction_head(trainer.head_scores());
  }
  INFO("after " << trainer.steps_done() << " of " << asked->train_steps << " steps the best induction head is L"
                << best.layer << " H" << best.head << " with " << best.induction);
  CHECK(best.induction >= asked->question->min_score);
  CHECK(best.layer == 1);
  // The choice question before it names that layer as the Train view does.
  bool named = false;
  for (const attn::io::LessonStep& s : l.steps)
    if (s.question && s.question->kind == attn::io::LessonQuestion::Kind::Choice &&
        s.question->prompt.find("which layer") != std::string::npos) {
      const std::string& right = s.question->choices.at(static_cast<size_t>(s.question->answer));
      INFO("the right choice reads \"" << right << "\"");
      CHECK(right.rfind("Layer " + std::to_string(best.layer), 0) == 0);
      named = true;
    }
  CHECK(named);
}
