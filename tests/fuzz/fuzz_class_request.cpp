// libFuzzer target for a phone's request body as the class server handles
// it (app/model's class_server): the body parsed as JSON, then joined and
// answered through ClassRoom against an open question of each form in turn
// (choice, cell, number), the student's view built and written out, and
// the question locked and revealed with the answers in. The same JSON also
// goes through read_question, read_answer and ClassSession::from_json (an
// autosaved session resumed), and a session read back is tallied and
// written as CSV as the window would. Refusals are fine; a crash, an
// exception the server would turn into an error page, a sanitizer report,
// or a session whose own JSON does not read back is a bug.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/classroom/class_room.hpp"
#include "model/classroom/class_tally.hpp"

namespace {

using model::ClassQuestion;

// The three forms a phone answers, shaped as a lesson's questions are.
std::vector<ClassQuestion> questions() {
  ClassQuestion choice;
  choice.step = 4;
  choice.form = ClassQuestion::Form::Choice;
  choice.prompt = "What will each row of weights look like?";
  choice.choices = {"About a third each", "One near 1, the rest near 0", "Some weights above 1"};
  ClassQuestion cell;
  cell.step = 0;
  cell.form = ClassQuestion::Form::Cell;
  cell.prompt = "Which movie will score highest?";
  cell.grid = "scores, head 1";
  cell.rows = 2;
  cell.cols = 3;
  cell.row_labels = {"user", "critic"};
  cell.col_labels = {"action", "drama", "comedy"};
  ClassQuestion number;
  number.step = 1;
  number.form = ClassQuestion::Form::Number;
  number.prompt = "What share will the action blockbuster get?";
  return {choice, cell, number};
}

// A session as autosave writes it must read back as the same session.
void check_round_trip(const model::ClassSession& s) {
  const nlohmann::json saved = s.to_json();
  model::ClassSession back("");
  if (!model::ClassSession::from_json(saved, &back).empty() || back.to_json() != saved) std::abort();
  (void)saved.dump();  // autosave writes it: every string in it must be UTF-8
}

void tally_and_csv(const model::ClassSession& s) {
  for (const model::QuestionRecord& r : s.asked()) (void)model::tally(r);
  (void)model::session_csv(s, true);
}

std::string string_field(const nlohmann::json& body, const char* key, const std::string& otherwise) {
  const auto it = body.find(key);
  return it != body.end() && it->is_string() ? it->get<std::string>() : otherwise;
}

// One question open, a student already in: the body as a join and as an
// answer, from its own device and from the one that joined.
void serve(const ClassQuestion& q, const nlohmann::json& body) {
  model::ClassSession session("K7M3QX");
  const std::string regular = "phone-0123456789ab";
  if (!session.join(regular, "Ada").empty()) std::abort();
  session.ask(q);
  model::ClassRoom room(std::move(session));
  const std::string device = string_field(body, "device", regular);
  (void)room.join(device, string_field(body, "nickname", ""));
  (void)room.answer(device, body);
  (void)room.answer(regular, body);
  (void)room.student_view(device).dump();
  (void)room.student_view(regular).dump();
  room.change([&](model::ClassSession& s) {
    s.lock();
    (void)s.answer(regular, q.step, model::ClassAnswer{});  // refused: locked
    model::Truth truth;
    truth.choice = 1;
    truth.cells = {{0, 2}};
    truth.number = 0.5;
    s.reveal([](const model::ClassAnswer& a) { return a.choice == 1 || (a.row == 0 && a.col == 2) || a.number == 0.5; }, truth);
  });
  (void)room.student_view(device).dump();
  const model::ClassSession after = room.snapshot();
  check_round_trip(after);
  tally_and_csv(after);
}

// The same JSON read as an answer, a question and a saved session.
void read_as_saved(const std::vector<ClassQuestion>& qs, const nlohmann::json& j) {
  model::ClassAnswer a;
  for (const ClassQuestion& q : qs) {
    if (model::read_answer(q, j, &a).empty()) (void)model::answer_json(q, a).dump();
    if (j.is_object() && j.contains("answer")) (void)model::read_answer(q, j["answer"], &a);
  }
  ClassQuestion q;
  if (model::read_question(j, &q).empty()) {
    ClassQuestion back;
    if (!model::read_question(model::question_json(q), &back).empty()) std::abort();
  }
  model::ClassSession s("");
  if (model::ClassSession::from_json(j, &s).empty()) {
    (void)s.answered();
    (void)s.to_json().dump();
    tally_and_csv(s);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 4096) return 0;  // the server refuses a larger body unread
  static const std::vector<ClassQuestion> qs = questions();
  const std::string text(reinterpret_cast<const char*>(data), size);
  const nlohmann::json body = nlohmann::json::parse(text, nullptr, false);
  if (body.is_discarded()) return 0;  // the server's 400 "not a JSON object"
  read_as_saved(qs, body);
  if (!body.is_object()) return 0;    // the same 400
  for (const ClassQuestion& q : qs) serve(q, body);
  return 0;
}
