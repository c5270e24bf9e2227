// The class session's state without a server: the questions of lesson 01 in
// their phone form, one answer per device, changes before the lock, answers
// refused after it (the counts unchanged), the reveal judged as the window
// judges, the tallies, the CSV, the limits, and a session written to JSON
// and read back as it was (resume after a crash).
#include <doctest/doctest.h>

#include <algorithm>
#include <functional>
#include <limits>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "attn/compute/trace.hpp"
#include "attn/io/lesson_file.hpp"
#include "model/classroom/class_session.hpp"
#include "model/classroom/class_tally.hpp"

using model::ClassAnswer;
using model::ClassQuestion;
using model::ClassSession;

namespace {

const attn::io::LessonFile& lesson01() {
  static const attn::io::LessonFile l = attn::io::load_lesson(std::string(ATTNVIZ_ASSETS_DIR) + "/lessons/01_attention_from_scratch.json");
  return l;
}

// Lesson 01's text with its *emphasis* and `math` markers taken out.
std::string without_markers(std::string text) {
  text.erase(std::remove_if(text.begin(), text.end(), [](char c) { return c == '*' || c == '`'; }), text.end());
  return text;
}

// Step `i`'s question in phone form, with the trace the projector shows.
struct Asked {
  attn::Trace trace;
  ClassQuestion q;
};
Asked asked(size_t i) {
  Asked a{attn::compute_trace(lesson01().steps[i].scene.scenario), {}};
  std::string why;
  const auto q = model::class_question(lesson01().steps[i], static_cast<int>(i), a.trace, &why);
  REQUIRE_MESSAGE(q, why);
  a.q = *q;
  return a;
}

std::string device(int i) { return "phone-" + std::to_string(1000 + i); }

ClassSession class_of(int n) {
  ClassSession s("ABC234");
  for (int i = 0; i < n; ++i) REQUIRE(s.join(device(i), "student " + std::to_string(i)) == "");
  return s;
}

ClassAnswer choice(int c) {
  ClassAnswer a;
  a.choice = c;
  return a;
}
ClassAnswer cell(int r, int c) {
  ClassAnswer a;
  a.row = r;
  a.col = c;
  return a;
}
ClassAnswer number(double v) {
  ClassAnswer a;
  a.number = v;
  return a;
}

}  // namespace

TEST_CASE("class: every question of lesson 01 has a phone form, a cell question carries the grid's shape and labels, not its values") {
  int forms[3] = {0, 0, 0};
  for (size_t i = 0; i < lesson01().steps.size(); ++i) {
    CAPTURE(i);
    const attn::io::LessonStep& st = lesson01().steps[i];
    const attn::Trace trace = attn::compute_trace(st.scene.scenario);
    std::string why;
    const auto q = model::class_question(st, static_cast<int>(i), trace, &why);
    if (!st.question) {
      CHECK_FALSE(q);
      CHECK(why.find("asks no question") != std::string::npos);
      continue;
    }
    REQUIRE_MESSAGE(q, why);
    CHECK(q->step == static_cast<int>(i));
    // The phone shows the prompt as plain text: the lesson's markers go.
    CHECK(q->prompt == without_markers(st.question->prompt));
    ++forms[static_cast<int>(q->form)];
    if (q->form == ClassQuestion::Form::Cell) {
      const attn::Stage* stage = trace.find_named(st.question->target.stage, st.question->target.head);
      REQUIRE(stage);
      CHECK(q->rows == stage->value.rows());
      CHECK(q->cols == stage->value.cols());
      CHECK(q->row_labels == stage->row_labels.vec());
      CHECK(q->col_labels == stage->col_labels.vec());
      // The phone form never carries a value of the grid.
      const std::string sent = model::question_json(*q).dump();
      CHECK(sent.find("value") == std::string::npos);
    }
    if (q->form == ClassQuestion::Form::Choice) {
      REQUIRE(q->choices.size() == st.question->choices.size());
      for (size_t c = 0; c < q->choices.size(); ++c) CHECK(q->choices[c] == without_markers(st.question->choices[c]));
    }
  }
  CHECK(forms[0] >= 3);  // choice
  CHECK(forms[1] >= 3);  // cell
  CHECK(forms[2] >= 3);  // number
}

TEST_CASE("class: one answer per device, changed until the lock, refused answers leave the counts as they were") {
  const Asked a = asked(4);  // a choice of three
  REQUIRE(a.q.form == ClassQuestion::Form::Choice);
  ClassSession s = class_of(3);
  s.ask(a.q);
  CHECK(s.answered() == 0);
  CHECK(s.answer(device(0), 4, choice(0)) == "");
  CHECK(s.answer(device(1), 4, choice(1)) == "");
  CHECK(s.answered() == 2);
  // A change replaces the answer: still two answers.
  CHECK(s.answer(device(0), 4, choice(1)) == "");
  CHECK(s.answered() == 2);
  CHECK(s.current()->answers.at(device(0)).answer.choice == 1);
  CHECK(s.current()->answers.at(device(0)).changes == 1);
  const nlohmann::json before = s.to_json();
  // Refusals, each by name, none changing anything.
  CHECK(s.answer("phone-never-joined", 4, choice(0)) == "this device has not joined the session");
  CHECK(s.answer(device(2), 5, choice(0)) == "that question is no longer asked");
  CHECK(s.answer(device(2), 4, choice(3)) == "choice 4 of 3");
  CHECK(s.answer(device(2), 4, choice(-1)) == "choice 0 of 3");
  CHECK(s.to_json() == before);
  s.lock();
  CHECK(s.answer(device(2), 4, choice(1)) == "answers to this question are locked");
  CHECK(s.answer(device(0), 4, choice(2)) == "answers to this question are locked");
  CHECK(s.to_json()["asked"][0]["answers"] == before["asked"][0]["answers"]);
  // Re-opened, the class may answer again.
  s.reopen();
  CHECK(s.answer(device(2), 4, choice(2)) == "");
  CHECK(s.answered() == 3);
  s.end();
  CHECK(s.answer(device(2), 4, choice(1)) == "the session has ended");
}

TEST_CASE("class: a cell or number answer must fit the question's form") {
  ClassSession s = class_of(1);
  const Asked c = asked(0);
  REQUIRE(c.q.form == ClassQuestion::Form::Cell);
  s.ask(c.q);
  CHECK(s.answer(device(0), 0, cell(c.q.rows, 0)) ==
        "cell (" + std::to_string(c.q.rows) + ", 0) is outside the " + std::to_string(c.q.rows) + "x" + std::to_string(c.q.cols) + " grid");
  CHECK(s.answer(device(0), 0, cell(0, -1)).find("is outside") != std::string::npos);
  CHECK(s.answer(device(0), 0, cell(c.q.rows - 1, c.q.cols - 1)) == "");
  const Asked n = asked(1);
  REQUIRE(n.q.form == ClassQuestion::Form::Number);
  s.ask(n.q);
  CHECK(s.answer(device(0), 1, number(std::numeric_limits<double>::quiet_NaN())) == "not a number");
  CHECK(s.answer(device(0), 1, number(std::numeric_limits<double>::infinity())) == "not a number");
  CHECK(s.answer(device(0), 1, number(2e12)) == "a number beyond 1e12 in size");
  CHECK(s.answered() == 0);
  // Answers as the phone sends them (JSON): the form's own fields only.
  ClassAnswer read;
  CHECK(model::read_answer(n.q, nlohmann::json::parse(R"({"number": "0.5"})"), &read) == "\"number\" is not a number");
  CHECK(model::read_answer(n.q, nlohmann::json::parse(R"({"choice": 1})"), &read) == "\"number\" is missing");
  CHECK(model::read_answer(c.q, nlohmann::json::parse(R"({"row": 1.5, "col": 0})"), &read) == "\"row\" is not a whole number");
  CHECK(model::read_answer(c.q, nlohmann::json::parse(R"({"row": 99999999999, "col": 0})"), &read) == "\"row\" is out of range");
  CHECK(model::read_answer(c.q, nlohmann::json::parse("[1, 2]"), &read) == "an answer is a JSON object");
  REQUIRE(model::read_answer(c.q, nlohmann::json::parse(R"({"row": 0, "col": 2})"), &read) == "");
  CHECK(read.row == 0);
  CHECK(read.col == 2);
}

TEST_CASE("class: the reveal judges each phone's answer as the window does, and the tallies count them") {
  SUBCASE("a cell question: the heat map counts each click, and the right ones are the row's largest score") {
    const Asked a = asked(0);  // scores, row 0: the largest
    ClassSession s = class_of(4);
    s.ask(a.q);
    // The right column, found here from the scores themselves.
    const attn::Stage* scores = a.trace.find_named("scores", 0);
    REQUIRE(scores);
    Eigen::Index best = 0;
    scores->value.row(0).maxCoeff(&best);
    const int wrong = best == 0 ? 1 : 0;
    REQUIRE(s.answer(device(0), 0, cell(0, static_cast<int>(best))) == "");
    REQUIRE(s.answer(device(1), 0, cell(0, static_cast<int>(best))) == "");
    REQUIRE(s.answer(device(2), 0, cell(0, wrong)) == "");
    s.lock();
    s.reveal(model::lesson_judge(*lesson01().steps[0].question, a.trace), model::lesson_truth(*lesson01().steps[0].question, a.trace));
    const model::ClassTally t = model::tally(*s.current());
    CHECK(t.answers == 3);
    CHECK(t.right == 2);
    CHECK(t.cell_counts.size() == static_cast<size_t>(a.q.rows * a.q.cols));
    CHECK(t.cell_counts[static_cast<size_t>(best)] == 2);
    CHECK(t.cell_counts[static_cast<size_t>(wrong)] == 1);
    CHECK(std::count(t.cell_counts.begin(), t.cell_counts.end(), 0) == a.q.rows * a.q.cols - 2);
    REQUIRE(s.current()->right_cells.size() >= 1);
    CHECK(s.current()->right_cells[0] == std::make_pair(0, static_cast<int>(best)));
    CHECK(s.current()->answers.at(device(2)).right == false);
  }
  SUBCASE("a number question: a histogram of the answers that covers the true value, right within the tolerance") {
    const Asked a = asked(1);  // weights[0][1], tolerance 0.005
    const double truth = a.trace.find_named("weights", 0)->value(0, 1);
    ClassSession s = class_of(5);
    s.ask(a.q);
    REQUIRE(s.answer(device(0), 1, number(truth + 0.004)) == "");
    REQUIRE(s.answer(device(1), 1, number(truth - 0.004)) == "");
    REQUIRE(s.answer(device(2), 1, number(truth + 0.2)) == "");
    REQUIRE(s.answer(device(3), 1, number(-3)) == "");
    s.reveal(model::lesson_judge(*lesson01().steps[1].question, a.trace), model::lesson_truth(*lesson01().steps[1].question, a.trace));
    const model::ClassTally t = model::tally(*s.current(), 10);
    CHECK(t.right == 2);
    REQUIRE(t.truth);
    CHECK(*t.truth == doctest::Approx(truth).epsilon(1e-12));
    CHECK(t.low <= -3);
    CHECK(t.high >= truth + 0.2);
    CHECK(t.bins.size() == 10);
    int total = 0;
    for (const int b : t.bins) total += b;
    CHECK(total == 4);
    CHECK(t.bins.front() == 1);  // -3 alone at the low end
  }
  SUBCASE("a choice question: a bar per choice; skipping judges nothing") {
    const Asked a = asked(4);
    ClassSession s = class_of(6);
    s.ask(a.q);
    for (int i = 0; i < 6; ++i) REQUIRE(s.answer(device(i), 4, choice(i % 3 == 0 ? 0 : 1)) == "");
    const model::ClassTally open = model::tally(*s.current());
    CHECK(open.right == -1);  // not revealed: no share right yet
    CHECK(open.choice_counts == std::vector<int>{2, 4, 0});
    s.reveal(model::lesson_judge(*lesson01().steps[4].question, a.trace), model::lesson_truth(*lesson01().steps[4].question, a.trace));
    CHECK(model::tally(*s.current()).right == 4);  // the lesson's answer is choice 1
    CHECK(s.current()->right_choice == 1);
    const Asked b = asked(8);
    s.ask(b.q);
    s.skip();
    s.reveal([](const ClassAnswer&) { return true; }, {});
    CHECK(s.current()->phase == model::QuestionPhase::Skipped);
    CHECK(model::tally(*s.current()).right == -1);
  }
}

TEST_CASE("class: a session written as JSON reads back the same, and a damaged one is refused by name") {
  ClassSession s = class_of(3);
  const Asked c = asked(0), n = asked(1), ch = asked(4);
  s.ask(c.q);
  REQUIRE(s.answer(device(0), 0, cell(0, 1)) == "");
  s.lock();
  s.ask(n.q);
  REQUIRE(s.answer(device(1), 1, number(0.25)) == "");
  s.reveal(model::lesson_judge(*lesson01().steps[1].question, n.trace), model::lesson_truth(*lesson01().steps[1].question, n.trace));
  s.ask(ch.q);
  REQUIRE(s.answer(device(2), 4, choice(2)) == "");
  const nlohmann::json saved = s.to_json();
  ClassSession back("");
  REQUIRE(ClassSession::from_json(nlohmann::json::parse(saved.dump()), &back) == "");
  CHECK(back.to_json() == saved);
  CHECK(back.code() == "ABC234");
  CHECK(back.answered() == 1);
  CHECK(back.current()->question.step == 4);
  // Going back to an earlier question keeps its answers.
  back.ask(c.q);
  CHECK(back.answered() == 1);
  CHECK(back.current()->phase == model::QuestionPhase::Open);

  const auto damaged = [&](const std::function<void(nlohmann::json&)>& harm) {
    nlohmann::json j = saved;
    harm(j);
    ClassSession out("");
    return ClassSession::from_json(j, &out);
  };
  CHECK(damaged([](nlohmann::json& j) { j["asked"][0]["phase"] = "maybe"; }) == "a saved question has an unknown phase");
  CHECK(damaged([](nlohmann::json& j) { j["current"] = 7; }) == "the saved session's current question is out of range");
  CHECK(damaged([&](nlohmann::json& j) { j["asked"][0]["answers"]["stranger-1234"] = j["asked"][0]["answers"][device(0)]; }) ==
        "a saved answer comes from a device that never joined");
  CHECK(damaged([&](nlohmann::json& j) { j["asked"][0]["answers"][device(0)]["answer"]["row"] = 99; }).find("is outside") != std::string::npos);
  CHECK(damaged([](nlohmann::json& j) { j["asked"][0]["question"]["rows"] = 0; }) == "a cell question's grid is not 1 to 4096 rows and columns");
  CHECK(damaged([](nlohmann::json& j) { j["asked"][0]["question"]["rows"] = 3; }) == "a cell question's grid shape and labels do not agree");
  // Whole numbers that are floats out of int's range (converting them was
  // undefined behaviour, found by fuzz_class_request) or not numbers.
  CHECK(damaged([](nlohmann::json& j) { j["asked"][0]["question"]["step"] = 1e19; }) == "a question's step is not a whole number from 0");
  CHECK(damaged([](nlohmann::json& j) { j["asked"][0]["question"]["rows"] = -1e19; }) == "a cell question's grid is not 1 to 4096 rows and columns");
  CHECK(damaged([](nlohmann::json& j) { j["current"] = 1e19; }) == "the saved session's current question is out of range");
  CHECK(damaged([](nlohmann::json& j) { j["current"] = 0.5; }) == "the saved session's current question is out of range");
  CHECK(damaged([](nlohmann::json& j) { j["asked"][0]["right_choice"] = 3e9; }) == "a saved question's right choice is not a whole number");
  CHECK(damaged([](nlohmann::json& j) { j["asked"][0]["right_cells"] = {{1e19, 0}}; }) ==
        "a saved right cell is not a pair of whole numbers within the grid");
  CHECK(damaged([&](nlohmann::json& j) { j["asked"][0]["answers"][device(0)]["changes"] = "many"; }) ==
        "a saved answer's change count is not a whole number from 0");
  CHECK(damaged([](nlohmann::json& j) { j.erase("students"); }).find("the saved session is malformed") == 0);
  CHECK(damaged([](nlohmann::json& j) { j["code"] = ""; }) == "the saved session's code is not acceptable");
}

TEST_CASE("class: at most 500 students, nicknames of 40 characters, device ids of a safe form") {
  ClassSession s = class_of(ClassSession::kMaxStudents);
  CHECK(s.join(device(ClassSession::kMaxStudents), "late") == "the class is full (500 students)");
  CHECK(s.join(device(3), "renamed") == "");  // a device already in rejoins
  CHECK(s.nickname(device(3)) == "renamed");
  CHECK(s.students() == ClassSession::kMaxStudents);

  CHECK(model::nickname_problem(std::string(40, 'a')) == "");
  CHECK(model::nickname_problem(std::string(41, 'a')) == "the nickname is longer than 40 characters");
  std::string accents;
  for (int i = 0; i < 40; ++i) accents += "\xC3\xA9";  // é: two bytes, one character
  CHECK(model::nickname_problem(accents) == "");
  CHECK(model::nickname_problem(accents + "e") == "the nickname is longer than 40 characters");
  CHECK(model::nickname_problem("bad\xFF") == "the nickname is not UTF-8 text");
  CHECK(model::nickname_problem("line\nbreak") == "the nickname holds a control character");
  CHECK(model::nickname_problem("<script>alert(1)</script>") == "");  // kept as text; escaped where shown
  CHECK(model::valid_device_id("abcDEF12-_"));
  CHECK_FALSE(model::valid_device_id("short"));
  CHECK_FALSE(model::valid_device_id("../../etc/passwd"));
  CHECK_FALSE(model::valid_device_id(std::string(65, 'a')));
  ClassSession t("XYZ789");
  CHECK(t.join("has space!", "x") == "the device id is not acceptable");
  CHECK(t.students() == 0);

  std::set<std::string> codes;
  for (int i = 0; i < 20; ++i) {
    const std::string code = model::new_session_code();
    CHECK(code.size() == 6);
    CHECK(code.find_first_of("01ILO") == std::string::npos);
    codes.insert(code);
  }
  CHECK(codes.size() >= 19);  // 31^6 codes: a repeat in 20 is a one in 44,000 chance
}

TEST_CASE("class: the CSV has a row per question with counts and share right, nicknames only when asked, quoted and defused") {
  ClassSession s("CSV234");
  REQUIRE(s.join(device(0), "=HYPERLINK(\"x\")") == "");
  REQUIRE(s.join(device(1), "Ann, \"the\" best") == "");
  REQUIRE(s.join(device(2), "") == "");
  const Asked a = asked(4);
  s.ask(a.q);
  REQUIRE(s.answer(device(0), 4, choice(1)) == "");
  REQUIRE(s.answer(device(1), 4, choice(1)) == "");
  REQUIRE(s.answer(device(2), 4, choice(0)) == "");
  s.reveal(model::lesson_judge(*lesson01().steps[4].question, a.trace), model::lesson_truth(*lesson01().steps[4].question, a.trace));
  const std::string plain = model::session_csv(s, false);
  CHECK(plain.rfind("step,form,phase,prompt,answers,right,share_right,counts\r\n", 0) == 0);
  CHECK(plain.find("5,choice,revealed,") != std::string::npos);
  CHECK(plain.find(",3,2,0.667,") != std::string::npos);
  CHECK(plain.find(a.q.choices[1] + "=2") != std::string::npos);
  CHECK(plain.find("HYPERLINK") == std::string::npos);
  CHECK(plain.find("Ann") == std::string::npos);
  const std::string named = model::session_csv(s, true);
  CHECK(named.find("\"'=HYPERLINK(\"\"x\"\")\"") != std::string::npos);  // a formula made text, then quoted
  CHECK(named.find("\"Ann, \"\"the\"\" best\"") != std::string::npos);
  CHECK(named.find("(no nickname)") != std::string::npos);
}
