// The class session's state. Every input here may come from a student's
// request, so each is checked before it changes anything: an answer refused
// leaves the counts as they were.
#include "model/classroom/class_session.hpp"

#include <algorithm>
#include <random>

#include <nlohmann/json.hpp>
#include <utf8proc.h>

namespace model {

const char* phase_name(QuestionPhase p) {
  switch (p) {
    case QuestionPhase::Open: return "open";
    case QuestionPhase::Locked: return "locked";
    case QuestionPhase::Revealed: return "revealed";
    case QuestionPhase::Skipped: return "skipped";
  }
  return "open";
}

namespace {

bool read_phase(const std::string& s, QuestionPhase* p) {
  for (const QuestionPhase q : {QuestionPhase::Open, QuestionPhase::Locked, QuestionPhase::Revealed, QuestionPhase::Skipped})
    if (s == phase_name(q)) {
      *p = q;
      return true;
    }
  return false;
}

}  // namespace

ClassSession::ClassSession(std::string code) : code_(std::move(code)) {}

std::string ClassSession::join(const std::string& device, const std::string& nickname) {
  if (!valid_device_id(device)) return "the device id is not acceptable";
  if (std::string problem = nickname_problem(nickname); !problem.empty()) return problem;
  const auto it = students_.find(device);
  if (it == students_.end() && students() >= kMaxStudents)
    return "the class is full (" + std::to_string(kMaxStudents) + " students)";
  students_[device] = nickname;
  return "";
}

const std::string& ClassSession::nickname(const std::string& device) const {
  static const std::string none;
  const auto it = students_.find(device);
  return it == students_.end() ? none : it->second;
}

void ClassSession::ask(const ClassQuestion& q) {
  for (size_t i = 0; i < asked_.size(); ++i)
    if (asked_[i].question.step == q.step) {
      current_ = static_cast<int>(i);
      // The scene may have changed since (a re-sized grid): the new form
      // counts, and answers that no longer fit it are dropped.
      QuestionRecord& r = asked_[i];
      r.question = q;
      for (auto it = r.answers.begin(); it != r.answers.end();)
        it = answer_problem(q, it->second.answer).empty() ? std::next(it) : r.answers.erase(it);
      r.phase = QuestionPhase::Open;
      return;
    }
  QuestionRecord r;
  r.question = q;
  asked_.push_back(std::move(r));
  current_ = static_cast<int>(asked_.size()) - 1;
}

bool ClassSession::show(int step) {
  for (size_t i = 0; i < asked_.size(); ++i)
    if (asked_[i].question.step == step) {
      current_ = static_cast<int>(i);
      return true;
    }
  current_ = -1;
  return false;
}

QuestionRecord* ClassSession::current_mut() { return current_ < 0 ? nullptr : &asked_[static_cast<size_t>(current_)]; }
const QuestionRecord* ClassSession::current() const { return current_ < 0 ? nullptr : &asked_[static_cast<size_t>(current_)]; }

std::string ClassSession::answer(const std::string& device, int step, const ClassAnswer& a) {
  if (ended_) return "the session has ended";
  if (!joined(device)) return "this device has not joined the session";
  QuestionRecord* r = current_mut();
  if (!r) return "no question is open";
  if (r->question.step != step) return "that question is no longer asked";
  if (r->phase != QuestionPhase::Open) return "answers to this question are locked";
  if (std::string problem = answer_problem(r->question, a); !problem.empty()) return problem;
  const auto it = r->answers.find(device);
  if (it == r->answers.end()) {
    r->answers[device] = StudentAnswer{a, 0, std::nullopt};
  } else {
    it->second.answer = a;
    ++it->second.changes;
  }
  return "";
}

void ClassSession::lock() {
  if (QuestionRecord* r = current_mut(); r && r->phase == QuestionPhase::Open) r->phase = QuestionPhase::Locked;
}

void ClassSession::reopen() {
  if (QuestionRecord* r = current_mut()) {
    r->phase = QuestionPhase::Open;
    for (auto& [device, a] : r->answers) a.right.reset();
    r->right_choice = -1;
    r->right_cells.clear();
    r->true_number.reset();
  }
}

void ClassSession::skip() {
  if (QuestionRecord* r = current_mut()) r->phase = QuestionPhase::Skipped;
}

void ClassSession::reveal(const AnswerJudge& judge, const Truth& truth) {
  QuestionRecord* r = current_mut();
  if (!r || r->phase == QuestionPhase::Skipped) return;
  r->phase = QuestionPhase::Revealed;
  for (auto& [device, a] : r->answers) a.right = judge(a.answer);
  r->right_choice = truth.choice;
  r->right_cells = truth.cells;
  r->true_number = truth.number;
}

int ClassSession::answered() const {
  const QuestionRecord* r = current();
  return r ? static_cast<int>(r->answers.size()) : 0;
}

nlohmann::json ClassSession::to_json() const {
  nlohmann::json students = nlohmann::json::object();
  for (const auto& [device, name] : students_) students[device] = name;
  nlohmann::json asked = nlohmann::json::array();
  for (const QuestionRecord& r : asked_) {
    nlohmann::json answers = nlohmann::json::object();
    for (const auto& [device, a] : r.answers) {
      nlohmann::json one = {{"answer", answer_json(r.question, a.answer)}, {"changes", a.changes}};
      if (a.right) one["right"] = *a.right;
      answers[device] = std::move(one);
    }
    nlohmann::json rec = {{"question", question_json(r.question)}, {"phase", phase_name(r.phase)}, {"answers", std::move(answers)}};
    if (r.right_choice >= 0) rec["right_choice"] = r.right_choice;
    if (!r.right_cells.empty()) rec["right_cells"] = r.right_cells;
    if (r.true_number) rec["true_number"] = *r.true_number;
    asked.push_back(std::move(rec));
  }
  return {{"code", code_}, {"students", std::move(students)}, {"asked", std::move(asked)}, {"current", current_}, {"ended", ended_}};
}

std::string ClassSession::from_json(const nlohmann::json& j, ClassSession* out) {
  try {
    ClassSession s(j.at("code").get<std::string>());
    if (s.code_.empty() || s.code_.size() > 16) return "the saved session's code is not acceptable";
    for (const auto& [device, name] : j.at("students").items()) {
      if (std::string problem = s.join(device, name.get<std::string>()); !problem.empty()) return "a saved student: " + problem;
    }
    for (const nlohmann::json& rec : j.at("asked")) {
      QuestionRecord r;
      if (std::string problem = read_question(rec.at("question"), &r.question); !problem.empty()) return problem;
      if (!read_phase(rec.at("phase").get<std::string>(), &r.phase)) return "a saved question has an unknown phase";
      for (const auto& [device, one] : rec.at("answers").items()) {
        if (!s.joined(device)) return "a saved answer comes from a device that never joined";
        StudentAnswer a;
        if (std::string problem = read_answer(r.question, one.at("answer"), &a.answer); !problem.empty()) return "a saved answer: " + problem;
        if (one.contains("changes")) {
          const std::optional<int> changes = whole_number(one.at("changes"), 0, 1 << 30);
          if (!changes) return "a saved answer's change count is not a whole number from 0";
          a.changes = *changes;
        }
        if (one.contains("right")) a.right = one.at("right").get<bool>();
        r.answers[device] = a;
      }
      if (rec.contains("right_choice")) {
        const std::optional<int> choice = whole_number(rec.at("right_choice"), -1, 1 << 20);
        if (!choice) return "a saved question's right choice is not a whole number";
        r.right_choice = *choice;
      }
      if (rec.contains("right_cells")) {
        for (const nlohmann::json& cell : rec.at("right_cells")) {
          const std::optional<int> row = cell.is_array() && cell.size() == 2 ? whole_number(cell[0], 0, 4095) : std::nullopt;
          const std::optional<int> col = cell.is_array() && cell.size() == 2 ? whole_number(cell[1], 0, 4095) : std::nullopt;
          if (!row || !col) return "a saved right cell is not a pair of whole numbers within the grid";
          r.right_cells.emplace_back(*row, *col);
        }
      }
      if (rec.contains("true_number")) r.true_number = rec.at("true_number").get<double>();
      s.asked_.push_back(std::move(r));
    }
    const std::optional<int> current = whole_number(j.at("current"), -1, static_cast<int>(s.asked_.size()) - 1);
    if (!current) return "the saved session's current question is out of range";
    s.current_ = *current;
    s.ended_ = j.value("ended", false);
    *out = std::move(s);
    return "";
  } catch (const nlohmann::json::exception& e) {
    return std::string("the saved session is malformed: ") + e.what();
  }
}

std::string session_code_problem(const std::string& code) {
  if (code.size() < 4 || code.size() > 16) return "a session code has 4 to 16 characters";
  for (const char c : code)
    if (!((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))) return "a session code has only capital letters and digits";
  return "";
}

std::string new_session_code() {
  static const char alphabet[] = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";
  std::random_device source;
  std::uniform_int_distribution<int> pick(0, static_cast<int>(sizeof alphabet) - 2);
  std::string code;
  for (int i = 0; i < 6; ++i) code += alphabet[pick(source)];
  return code;
}

bool valid_device_id(const std::string& device) {
  if (device.size() < 8 || device.size() > 64) return false;
  return std::all_of(device.begin(), device.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
  });
}

std::string nickname_problem(const std::string& nickname) {
  int characters = 0;
  const auto* p = reinterpret_cast<const utf8proc_uint8_t*>(nickname.data());
  utf8proc_ssize_t left = static_cast<utf8proc_ssize_t>(nickname.size());
  while (left > 0) {
    utf8proc_int32_t cp = 0;
    const utf8proc_ssize_t n = utf8proc_iterate(p, left, &cp);
    if (n <= 0) return "the nickname is not UTF-8 text";
    const utf8proc_category_t cat = utf8proc_category(cp);
    if (cat == UTF8PROC_CATEGORY_CC || cat == UTF8PROC_CATEGORY_ZL || cat == UTF8PROC_CATEGORY_ZP)
      return "the nickname holds a control character";
    if (++characters > ClassSession::kMaxNickname)
      return "the nickname is longer than " + std::to_string(ClassSession::kMaxNickname) + " characters";
    p += n;
    left -= n;
  }
  return "";
}

}  // namespace model
