// A bad value is quoted as a short, marked excerpt, never whole: a 60 KB
// mask string used to give a 60 KB error line. For a scenario, a lesson and
// a model, a 60,000-character value in each kind of message (an unknown
// choice, an unknown key, an unknown stage, a bad version, broken JSON)
// gives a message under 300 characters that still names the field.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "attn/io/excerpt.hpp"
#include "attn/io/lesson_file.hpp"
#include "attn/io/model_file.hpp"
#include "attn/io/scenario_file.hpp"
#include "attn/io/text_file.hpp"
#include "scenario_samples.hpp"

using nlohmann::json;

namespace {

const std::string kLong(60000, 'z');
constexpr std::size_t kShort = 300;

// Every problem parse_lesson reports for `doc`.
std::vector<std::string> lesson_problems(const json& doc) {
  try {
    (void)attn::io::parse_lesson(doc.dump(), ATTN_TEST_DATA_DIR);
  } catch (const attn::io::LessonError& e) {
    return e.problems;
  } catch (const attn::io::FormatError& e) {
    return {e.what()};
  }
  return {};
}

json lesson() {
  return {{"format", "attnviz-lesson"}, {"version", 1}, {"title", "t"}, {"article", "a"},
          {"steps", json::array({{{"title", "s"}, {"text", "x"}, {"scene", {{"x", {{1.0, 2.0}}}}}}})}};
}

std::string model_error(const json& doc) {
  try {
    (void)attn::io::parse_model(doc.dump());
  } catch (const attn::io::FormatError& e) {
    return e.what();
  }
  return "<no error>";
}

json model() { return json::parse(attn::io::read_text(std::string(ATTN_MODEL_CORPUS_DIR) + "/valid_small.json")); }

// Short, naming `field`, and showing that the value was cut.
void check_short(const std::string& message, const std::string& field) {
  CAPTURE(message.substr(0, 400));
  CHECK(message.size() < kShort);
  CHECK(message.find(field) != std::string::npos);
  CHECK(message.find("\u2026") != std::string::npos);
  CHECK(message.find(" characters)") != std::string::npos);
}

}  // namespace

TEST_CASE("long values: an excerpt is the value's start, marked, with its length") {
  CHECK(attn::io::quoted_excerpt("mask") == "\"mask\"");
  CHECK(attn::io::quoted_excerpt(kLong) == "\"" + std::string(40, 'z') + "\u2026\" (60,000 characters)");
  // Cut between characters, not inside one; counted in characters.
  std::string accents;
  for (int i = 0; i < 50; ++i) accents += "\u00e9";
  CHECK(attn::io::quoted_excerpt(accents).rfind("\"" + accents.substr(0, 80) + "\u2026\" (50 characters)", 0) == 0);
  // Control characters are escaped: the message stays on one line.
  CHECK(attn::io::quoted_excerpt("a\nb") == "\"a\\nb\"");
  CHECK(attn::io::excerpt(kLong) == std::string(40, 'z') + "\u2026 (60,000 characters)");
}

TEST_CASE("long values: a scenario's mask, scale, choice, key and broken text") {
  json doc = attn::io::test::self_attention_sample();
  doc["mask"] = kLong;
  check_short(attn::io::test::parse_error_of(doc), "mask: ");
  doc = attn::io::test::self_attention_sample();
  doc["scale"] = kLong;
  check_short(attn::io::test::parse_error_of(doc), "scale: ");
  doc = attn::io::test::self_attention_sample();
  doc["positional"] = kLong;
  check_short(attn::io::test::parse_error_of(doc), "positional: ");
  doc = attn::io::test::self_attention_sample();
  doc["heads"][0]["w_q"] = kLong;
  check_short(attn::io::test::parse_error_of(doc), "heads[0].w_q: ");
  doc = attn::io::test::self_attention_sample();
  doc[kLong] = 1;
  const attn::io::ScenarioFile f = attn::io::parse_scenario(doc.dump());
  REQUIRE(f.warnings.size() == 1);
  check_short(f.warnings[0], "unknown key");
  // A string with a control character at its end: the JSON reader's "last
  // read", all of the string so far, is cut too.
  check_short(attn::io::test::parse_error_of(std::string("{\"title\": \"") + kLong + "\x01\"}"), "invalid JSON");
}

TEST_CASE("long values: a lesson's choice, stage, task, key and version") {
  json doc = lesson();
  doc["steps"][0]["view"] = {{"granularity", kLong}};
  std::vector<std::string> problems = lesson_problems(doc);
  REQUIRE(problems.size() == 1);
  check_short(problems[0], "steps[0].view.granularity: ");
  doc = lesson();
  doc["steps"][0]["view"] = {{"stage", kLong}};
  problems = lesson_problems(doc);
  REQUIRE(problems.size() == 1);
  check_short(problems[0], "steps[0].view.stage: ");
  doc = lesson();
  doc["steps"][0]["train"] = {{"task", kLong}};
  problems = lesson_problems(doc);
  REQUIRE(problems.size() == 1);
  check_short(problems[0], "steps[0].train.task: ");
  doc = lesson();
  doc["steps"][0][kLong] = 1;
  problems = lesson_problems(doc);
  REQUIRE(problems.size() == 1);
  check_short(problems[0], "steps[0]");
  doc = lesson();
  doc["version"] = kLong;
  problems = lesson_problems(doc);
  REQUIRE(problems.size() == 1);
  check_short(problems[0], "version: ");
}

TEST_CASE("long values: a model's task, key and format") {
  json doc = model();
  doc["task"]["name"] = kLong;
  check_short(model_error(doc), "task.name: ");
  doc = model();
  doc["model"][kLong] = 1;
  check_short(model_error(doc), "model");
  doc = model();
  doc["format"] = kLong;
  check_short(model_error(doc), "format: ");
}
