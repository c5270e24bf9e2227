// `attn class simulate`'s simulation against a real class server in this
// process (ClassRoom + ClassServer on 127.0.0.1, a free port): every
// simulated student's answer reaches the session for each question form of
// lesson 01, a run started before the teacher asks waits for the question,
// the same seed rejoins as the same students, and a wrong code or a server
// that is gone is one clear error. The pure parts (device ids, answers,
// percentiles, the join address) are checked against the server's own rules.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <future>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "attn/compute/trace.hpp"
#include "attn/io/lesson_file.hpp"
#include "classroom/class_api_client.hpp"
#include "classroom/class_simulation.hpp"
#include "classroom/simulated_student.hpp"
#include "model/classroom/class_server.hpp"

using attn::cli::SimulationError;
using attn::cli::SimulationReport;
using attn::cli::SimulationSettings;

namespace {

const attn::io::LessonFile& lesson_01() {
  static const attn::io::LessonFile l = attn::io::load_lesson(std::string(ATTNVIZ_ASSETS_DIR) + "/lessons/01_attention_from_scratch.json");
  return l;
}

// Lesson 01's step `index` (0-based) in its phone form.
model::ClassQuestion question_of(size_t index) {
  const attn::Trace trace = attn::compute_trace(lesson_01().steps[index].scene.scenario);
  std::string why;
  const auto q = model::class_question(lesson_01().steps[index], static_cast<int>(index), trace, &why);
  REQUIRE_MESSAGE(q, why);
  return *q;
}

// The first step of lesson 01 whose question has this form.
size_t step_with(model::ClassQuestion::Form form) {
  for (size_t i = 0; i < lesson_01().steps.size(); ++i) {
    if (!lesson_01().steps[i].question) continue;
    const attn::Trace trace = attn::compute_trace(lesson_01().steps[i].scene.scenario);
    std::string why;
    const auto q = model::class_question(lesson_01().steps[i], static_cast<int>(i), trace, &why);
    if (q && q->form == form) return i;
  }
  FAIL("lesson 01 has no question of the form ", model::form_name(form));
  return 0;
}

// A class session served on a free loopback port, with no question yet.
struct ServedClass {
  model::ClassRoom room{model::ClassSession("K7M3QX")};
  model::ClassServer server{room};
  ServedClass() { REQUIRE(server.start("127.0.0.1", 0) == ""); }
  void ask(const model::ClassQuestion& q) {
    room.change([&](model::ClassSession& s) { s.ask(q); });
  }
  SimulationSettings settings(int students) const {
    SimulationSettings s;
    s.join = server.join_address();
    s.code = "K7M3QX";
    s.students = students;
    s.within_s = 0.5;
    s.seed = 42;
    s.wait_s = 5;
    return s;
  }
};

}  // namespace

TEST_CASE("class simulate: 50 students each answer a question of every form, and none is lost") {
  for (const auto form : {model::ClassQuestion::Form::Choice, model::ClassQuestion::Form::Cell, model::ClassQuestion::Form::Number}) {
    CAPTURE(model::form_name(form));
    ServedClass c;
    const model::ClassQuestion q = question_of(step_with(form));
    c.ask(q);
    const SimulationReport r = attn::cli::simulate_class(c.settings(50));
    CHECK_MESSAGE(r.lost == 0, r.first_problem);
    CHECK(r.students == 50);
    CHECK(r.joined == 50);
    CHECK(r.sent == 50);
    CHECK(r.accepted == 50);
    CHECK(r.not_sent == 0);
    CHECK(r.form == model::form_name(form));
    CHECK(r.step == q.step + 1);
    CHECK(r.latency.count == 50);
    CHECK(r.latency.p50_ms <= r.latency.p99_ms);
    CHECK(r.latency.p99_ms <= r.latency.max_ms);
    const model::ClassSession s = c.room.snapshot();
    CHECK(s.students() == 50);
    CHECK(s.answered() == 50);
    // Every stored answer fits the question (the server checked it too).
    for (const auto& [device, answer] : s.current()->answers) CHECK(model::answer_problem(q, answer.answer) == "");
    // The JSON a script reads says the same.
    const nlohmann::json j = attn::cli::report_json(r);
    CHECK(j["lost"] == 0);
    CHECK(j["accepted"] == 50);
    CHECK(j["p99_ms"].get<double>() == r.latency.p99_ms);
  }
}

TEST_CASE("class simulate: a run started before the teacher asks waits for the question, and the same seed rejoins the same students") {
  ServedClass c;
  const SimulationSettings settings = c.settings(20);
  auto run = std::async(std::launch::async, [&] { return attn::cli::simulate_class(settings); });
  std::this_thread::sleep_for(std::chrono::milliseconds(600));
  CHECK(c.room.snapshot().answered() == 0);
  c.ask(question_of(step_with(model::ClassQuestion::Form::Choice)));
  const SimulationReport first = run.get();
  CHECK_MESSAGE(first.accepted == 20, first.first_problem);
  CHECK(c.room.snapshot().answered() == 20);

  const SimulationReport again = attn::cli::simulate_class(settings);
  CHECK_MESSAGE(again.accepted == 20, again.first_problem);
  CHECK(c.room.snapshot().students() == 20);  // rejoined, not 40
  CHECK(c.room.snapshot().answered() == 20);
}

TEST_CASE("class simulate: a wrong code, a server that is gone, no question in time and bad settings are one clear error each") {
  ServedClass c;
  SimulationSettings s = c.settings(5);
  s.code = "WRONG1";
  CHECK_THROWS_WITH_AS(attn::cli::simulate_class(s), doctest::Contains("refused the session code \"WRONG1\""), SimulationError);

  s = c.settings(5);
  s.wait_s = 0.3;
  CHECK_THROWS_WITH_AS(attn::cli::simulate_class(s), doctest::Contains(("no question was open at " + s.join).c_str()), SimulationError);

  s.students = 0;
  CHECK_THROWS_WITH_AS(attn::cli::simulate_class(s), doctest::Contains("--students"), SimulationError);
  s = c.settings(5);
  s.join = "127.0.0.1:8765";
  CHECK_THROWS_WITH_AS(attn::cli::simulate_class(s), doctest::Contains("not an http:// address"), SimulationError);

  const std::string gone = c.server.join_address();
  c.server.stop();
  s = c.settings(5);
  s.join = gone;
  CHECK_THROWS_WITH_AS(attn::cli::simulate_class(s), doctest::Contains(("cannot reach the class server at " + gone).c_str()), SimulationError);
}

TEST_CASE("class simulate: device ids pass the server's check and answers stay in their question's range") {
  std::vector<std::string> ids;
  for (const std::uint64_t seed : {0ull, 1ull, 0xFFFFFFFFFFFFFFFFull})
    for (int i : {0, 1, 499, 9999}) {
      ids.push_back(attn::cli::simulated_device(seed, i));
      CHECK_MESSAGE(model::valid_device_id(ids.back()), ids.back());
      CHECK(model::nickname_problem(attn::cli::simulated_nickname(i)) == "");
    }
  std::sort(ids.begin(), ids.end());
  CHECK(std::adjacent_find(ids.begin(), ids.end()) == ids.end());  // no two students share a device

  for (const auto form : {model::ClassQuestion::Form::Choice, model::ClassQuestion::Form::Cell, model::ClassQuestion::Form::Number}) {
    const model::ClassQuestion q = question_of(step_with(form));
    auto random = attn::cli::student_random(7, 3);
    for (int draw = 0; draw < 200; ++draw) {
      const nlohmann::json a = attn::cli::random_answer(model::question_json(q), random);
      model::ClassAnswer read;
      CHECK_MESSAGE(model::read_answer(q, a, &read) == "", a.dump());
    }
  }
  std::mt19937_64 random(1);
  CHECK_THROWS_WITH(attn::cli::random_answer({{"form", "cell"}, {"rows", 0}, {"cols", 3}}, random), doctest::Contains("\"rows\""));
  CHECK_THROWS_WITH(attn::cli::random_answer({{"form", "drawing"}}, random), doctest::Contains("unknown question form \"drawing\""));
}

TEST_CASE("class simulate: percentiles are nearest-rank values that were measured") {
  std::vector<double> ms;
  for (int i = 200; i >= 1; --i) ms.push_back(0.5 * i);  // 0.5 .. 100, unsorted
  const attn::cli::LatencySummary s = attn::cli::summarize_latency(ms);
  std::sort(ms.begin(), ms.end());
  // Rank ceil(p * n / 100) of 200 sorted values.
  CHECK(s.p50_ms == ms[99]);
  CHECK(s.p90_ms == ms[179]);
  CHECK(s.p99_ms == ms[197]);
  CHECK(s.max_ms == ms.back());
  CHECK(s.count == 200);
  CHECK(attn::cli::summarize_latency({}).count == 0);
  CHECK(attn::cli::nearest_rank({3.0}, 99) == 3.0);
}

TEST_CASE("class simulate: the join address is http://ADDRESS:PORT and nothing else") {
  const attn::cli::JoinAddress a = attn::cli::parse_join_address("http://192.168.1.5:8765/");
  CHECK(a.host == "192.168.1.5");
  CHECK(a.port == 8765);
  CHECK_THROWS_WITH(attn::cli::parse_join_address("https://x:1"), doctest::Contains("not an http:// address"));
  CHECK_THROWS_WITH(attn::cli::parse_join_address("http://x"), doctest::Contains("names no port"));
  CHECK_THROWS_WITH(attn::cli::parse_join_address("http://x:0"), doctest::Contains("not a number from 1 to 65535"));
  CHECK_THROWS_WITH(attn::cli::parse_join_address("http://x:123456"), doctest::Contains("not a number from 1 to 65535"));
  CHECK_THROWS_WITH(attn::cli::parse_join_address("http://x:80/api"), doctest::Contains("has a path"));
}
