// Lesson files: a valid lesson resolves every step's scene (carried over and
// edited), and each class of mistake a teacher can make is reported with its
// step and field. One test case per class: each breaks one thing in a valid
// sample and checks the message.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include "attn/io/lesson_file.hpp"

using attn::io::LessonFile;
using nlohmann::json;

namespace {

const std::string kScenes = std::string(ATTNVIZ_ASSETS_DIR) + "/scenarios";

json sample() {
  return json::parse(R"({
    "format": "attnviz-lesson", "version": 1, "title": "Sample", "article": "Attention",
    "steps": [
      {"title": "one", "text": "Look at *sat*.", "scene": "default.json",
       "view": {"stage": "weights", "time": {"stage": "scores"}, "play": {"from": "scores", "to": "weights"},
                "highlight": [{"stage": "masked", "row": 2}], "granularity": "row", "panels": {"editor": false}},
       "question": {"kind": "number", "prompt": "p", "cell": {"stage": "weights", "row": 2, "col": 1}, "tolerance": 0.01}},
      {"title": "two", "text": "x", "edits": [{"set": "scale", "to": 2.0}],
       "question": {"kind": "cell", "prompt": "p", "stage": "weights", "row": 3, "answer": "max"}},
      {"title": "three", "text": "x", "scene": {"x": [[1, 0], [0, 1]], "tokens": ["a", "b"]},
       "question": {"kind": "choice", "prompt": "p", "choices": ["a", "b"], "answer": 1},
       "compare": {"set": [{"set": "scale", "to": "none"}], "stage": "weights", "a": "scaled", "b": "unscaled"}}
    ]})");
}

// The problems parse_lesson reports, joined by newlines; "" when it loads.
std::string problems_of(const json& doc) {
  try {
    attn::io::parse_lesson(doc.dump(), kScenes);
    return "";
  } catch (const attn::io::LessonError& e) {
    std::string all;
    for (const std::string& p : e.problems) all += (all.empty() ? "" : "\n") + p;
    return all;
  } catch (const attn::io::FormatError& e) {
    return e.what();
  }
}

// The first problem only (a broken first step also stops the next one, which
// carries its scene over).
std::string first_problem(const json& doc) {
  const std::string all = problems_of(doc);
  return all.substr(0, all.find('\n'));
}

}  // namespace

TEST_CASE("lesson: a valid lesson resolves scenes, carries them over and applies edits") {
  const LessonFile l = attn::io::parse_lesson(sample().dump(), kScenes);
  REQUIRE(l.steps.size() == 3);
  CHECK(l.questions() == 3);
  CHECK(l.steps[0].scene.title == "Your first attention: four words, one head, causal");
  // Step two carries step one's scene, with its temperature edit.
  CHECK(l.steps[1].scene.scenario.x == l.steps[0].scene.scenario.x);
  CHECK(l.steps[1].scene.scenario.scale == attn::ScaleMode::Temperature);
  CHECK(l.steps[1].scene.scenario.temperature == 2.0);
  CHECK(l.steps[0].scene.scenario.scale == attn::ScaleMode::SqrtDk);  // edits never reach back
  CHECK(l.steps[2].scene.scenario.x.rows() == 2);  // inline scene
  REQUIRE(l.steps[2].compare);
  CHECK(l.steps[2].compare->b.scale == attn::ScaleMode::None);
  CHECK(l.steps[0].view.time == attn::io::LessonView::Time::StageEnd);
  CHECK(l.steps[0].view.play_from == "scores");
}

TEST_CASE("lesson: a scene path that does not exist") {
  json doc = sample();
  doc["steps"][0]["scene"] = "no_such.json";
  const std::string p = problems_of(doc);
  CHECK_MESSAGE(p.find("steps[0].scene: ") == 0, p);
  CHECK_MESSAGE(p.find("no_such.json: cannot open") != std::string::npos, p);
  // The step after it carries that scene over: the problem is said once, at
  // its source, and the step is not checked against a scene it cannot have.
  CHECK_MESSAGE(p.find("steps[1]") == std::string::npos, p);
}

TEST_CASE("lesson: each problem at its source, a step's bad question does not hide the next steps' own problems") {
  // Before, a negative tolerance in step 2 was reported as "steps[3..5].scene:
  // carried over from the step before, which has a problem", hiding step 5's
  // own error.
  json doc = sample();
  json steps = json::array();
  steps.push_back(doc["steps"][0]);
  json two = doc["steps"][0];
  two.erase("scene");
  two["question"]["tolerance"] = -0.5;
  steps.push_back(two);
  for (int i = 0; i < 2; ++i) steps.push_back({{"title", "carried"}, {"text", "x"}});
  json five = {{"title", "five"}, {"text", "x"}, {"view", {{"stage", "wieghts"}}}};
  steps.push_back(five);
  doc["steps"] = steps;
  const std::string p = problems_of(doc);
  CAPTURE(p);
  CHECK(p.find("steps[1].question.tolerance") != std::string::npos);
  CHECK(p.find("steps[4].view.stage: no stage \"wieghts\"") != std::string::npos);
  CHECK(p.find("carried over") == std::string::npos);
  CHECK(p.find("steps[2]") == std::string::npos);
  CHECK(p.find("steps[3]") == std::string::npos);
}

TEST_CASE("lesson: an unknown stage, with the stages the scene has") {
  json doc = sample();
  doc["steps"][0]["view"]["stage"] = "wieghts";
  const std::string p = problems_of(doc);
  CHECK_MESSAGE(p.find("steps[0].view.stage: no stage \"wieghts\" in this scene (its stages: \"x\", \"w_q\"") == 0, p);
}

TEST_CASE("lesson: a cell out of range, naming the stage's size") {
  json doc = sample();
  doc["steps"][0]["question"]["cell"]["row"] = 7;
  CHECK(problems_of(doc) == "steps[0].question.cell.row: 7 is out of range (weights of head 0 has 4 rows)");
  doc = sample();
  doc["steps"][0]["view"]["highlight"][0]["col"] = 9;
  CHECK(problems_of(doc) == "steps[0].view.highlight[0].col: 9 is out of range (masked of head 0 has 4 columns)");
}

TEST_CASE("lesson: an index far out of range is refused naming both ends of the range") {
  json doc = sample();
  doc["steps"][0]["question"]["cell"]["row"] = 1000000000;
  CHECK(problems_of(doc) == "steps[0].question.cell.row: expected a whole number from 0 to 10000000, got 1000000000");
  doc = sample();
  doc["steps"][0]["view"]["heads"] = -1;
  CHECK(problems_of(doc) == "steps[0].view.heads: expected a whole number from 0 to 10000000, got -1");
}

TEST_CASE("lesson: a head the scene does not have") {
  json doc = sample();
  doc["steps"][1]["question"]["head"] = 3;
  CHECK(problems_of(doc) == "steps[1].question.stage: no head 3 (this scene has 1)");
  doc = sample();
  doc["steps"][0]["view"]["heads"] = 2;
  CHECK(problems_of(doc) == "steps[0].view.heads: no head 2 (this scene has 1)");
}

TEST_CASE("lesson: malformed questions") {
  json doc = sample();
  doc["steps"][0]["question"].erase("prompt");
  CHECK(first_problem(doc) == "steps[0].question.prompt: missing (the question, in a sentence)");
  doc = sample();
  doc["steps"][0]["question"]["kind"] = "essay";
  CHECK(problems_of(doc).find("steps[0].question.kind: unknown value \"essay\"") == 0);
  doc = sample();
  doc["steps"][0]["question"].erase("tolerance");
  CHECK(first_problem(doc) == "steps[0].question.tolerance: missing (how far from the answer is still right)");
  doc = sample();
  doc["steps"][2]["question"]["answer"] = 2;
  CHECK(problems_of(doc) == "steps[2].question.answer: 2 is out of range (there are 2 choices, counted from 0)");
  doc = sample();
  doc["steps"][2]["question"]["choices"] = json::array({"only one"});
  CHECK(problems_of(doc) == "steps[2].question.choices: expected 2 to 12 answers, got 1");
  doc = sample();
  doc["steps"][1]["question"].erase("row");
  CHECK(problems_of(doc) == "steps[1].question.answer: \"max\"/\"min\" need the question's \"row\" or \"col\" to say where to look");
  doc = sample();
  doc["steps"][1]["question"]["answer"] = json::array({{{"row", 1}}});
  CHECK(problems_of(doc) == "steps[1].question.answer[0]: a right answer needs both \"row\" and \"col\"");
}

TEST_CASE("lesson: edits that name no field, or break the scene") {
  json doc = sample();
  doc["steps"][1]["edits"][0]["set"] = "maks";
  CHECK(problems_of(doc) == "steps[1].edits[0].set: maks: no such field in a scenario");
  doc = sample();
  doc["steps"][1]["edits"][0] = {{"set", "x[9][0]"}, {"to", 1}};
  CHECK(problems_of(doc) == "steps[1].edits[0].set: x[9]: out of range (it has 4 entries)");
  doc = sample();
  doc["steps"][1]["edits"][0] = {{"set", "scale"}, {"to", -1}};
  CHECK(problems_of(doc) == "steps[1].edits: the edited scene is not valid: scale: must be positive, got -1");
  doc = sample();
  doc["steps"][1]["edits"][0] = {{"set", "x[0]["}, {"to", 1}};
  CHECK(problems_of(doc).find("steps[1].edits[0].set: \"x[0][\" is not a field path") == 0);
}

TEST_CASE("lesson: a first step without a scene, and a scene that overflows") {
  json doc = sample();
  doc["steps"][0].erase("scene");
  CHECK(problems_of(doc).find("steps[0].scene: missing (the first step needs a scene)") == 0);
  doc = sample();
  doc["steps"][2]["scene"]["x"] = json::array({json::array({1e308, 1}), json::array({0, 1})});
  CHECK(problems_of(doc).find("steps[2].scene: cannot be computed: stage \"scores\"") == 0);
}

TEST_CASE("lesson: header and structure") {
  json doc = sample();
  doc["format"] = "attnviz-scenario";
  CHECK(problems_of(doc) == "format: expected \"attnviz-lesson\", got string \"attnviz-scenario\" (this is a scenario file, not a lesson)");
  doc = sample();
  doc["version"] = 2;
  CHECK(problems_of(doc) == "version: unsupported version 2 (this build reads version 1)");
  doc = sample();
  doc["steps"] = json::array();
  CHECK(problems_of(doc) == "steps: expected a non-empty array of steps, got an empty array");
  doc = sample();
  doc["stpes"] = 1;
  CHECK(problems_of(doc).find("stpes: unknown key") == 0);
  doc = sample();
  doc["steps"][0]["veiw"] = json::object();
  CHECK(problems_of(doc).find("steps[0].veiw: unknown key") == 0);
  doc = sample();
  doc["steps"][0].erase("title");
  CHECK(first_problem(doc) == "steps[0].title: missing (a short heading)");
  // Panels are named: the KV cache panel is one of them, a typo is not.
  doc = sample();
  doc["steps"][0]["view"]["panels"] = {{"kv_cache", true}};
  CHECK(problems_of(doc) == "");
  doc["steps"][0]["view"]["panels"] = {{"kv_cahce", true}};
  CHECK(problems_of(doc).find("kv_cahce: unknown key") != std::string::npos);
}

TEST_CASE("lesson: view timing and play ranges name real stages") {
  json doc = sample();
  doc["steps"][0]["view"]["time"] = {{"stage", "scroes"}};
  CHECK(problems_of(doc).find("steps[0].view.time.stage: no stage \"scroes\"") == 0);
  doc = sample();
  doc["steps"][0]["view"]["play"]["to"] = "output2";
  CHECK(problems_of(doc).find("steps[0].view.play.to: no stage \"output2\"") == 0);
  doc = sample();
  doc["steps"][0]["view"]["time"] = -3;
  CHECK(first_problem(doc) == "steps[0].view.time: must not be negative, got -3");
  doc = sample();
  doc["steps"][0]["view"]["granularity"] = "pixel";
  CHECK(problems_of(doc).find("steps[0].view.granularity: unknown value \"pixel\"") == 0);
}

TEST_CASE("lesson: the cell a step inspects exists and is one cell") {
  json doc = sample();
  doc["steps"][0]["view"]["inspect"] = {{"stage", "scores"}, {"head", 0}, {"row", 3}, {"col", 1}};
  CHECK(problems_of(doc) == "");
  doc["steps"][0]["view"]["inspect"]["col"] = 4;
  CHECK(problems_of(doc) == "steps[0].view.inspect.col: 4 is out of range (scores of head 0 has 4 columns)");
  doc["steps"][0]["view"]["inspect"] = {{"stage", "scores"}, {"row", 3}};
  CHECK(first_problem(doc) == "steps[0].view.inspect: needs \"row\" and \"col\" (one cell)");
  doc["steps"][0]["view"]["inspect"] = {{"stage", "scroes"}, {"row", 3}, {"col", 1}};
  CHECK(problems_of(doc).find("steps[0].view.inspect.stage: no stage \"scroes\"") == 0);
}

TEST_CASE("lesson: every problem of every step is reported at once") {
  json doc = sample();
  doc["steps"][0]["view"]["stage"] = "nope";
  doc["steps"][2]["question"]["answer"] = 5;
  const std::string p = problems_of(doc);
  CHECK_MESSAGE(p.find("steps[0].view.stage") != std::string::npos, p);
  CHECK_MESSAGE(p.find("steps[2].question.answer") != std::string::npos, p);
}

TEST_CASE("lesson: the compare view's stage exists in A or B") {
  json doc = sample();
  doc["steps"][2]["compare"]["stage"] = "wieghts";
  CHECK(problems_of(doc) == "steps[2].compare.stage: no stage \"wieghts\" in A or B");
}

TEST_CASE("lesson: the syllabus: a lesson per article, each with 8+ steps and 3+ questions of every kind between them") {
  namespace fs = std::filesystem;
  std::vector<std::string> articles;
  for (const fs::directory_entry& e : fs::directory_iterator(std::string(ATTNVIZ_ASSETS_DIR) + "/lessons")) {
    const LessonFile l = attn::io::load_lesson(e.path().string());
    CAPTURE(l.id);
    CHECK(l.steps.size() >= 8);
    CHECK(l.questions() >= 3);
    articles.push_back(l.article);
  }
  std::sort(articles.begin(), articles.end());
  articles.erase(std::unique(articles.begin(), articles.end()), articles.end());
  CHECK(articles.size() >= 5);
}
