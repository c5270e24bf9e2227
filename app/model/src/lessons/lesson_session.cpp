// Lesson navigation, answers and their progress record.
#include "model/lessons/lesson_session.hpp"

#include <algorithm>

namespace model {
namespace {

using Status = StepAnswer::Status;

const char* status_name(Status s) {
  switch (s) {
    case Status::Open: return "open";
    case Status::Wrong: return "wrong";
    case Status::Right: return "right";
    case Status::GaveUp: return "gave_up";
  }
  return "open";
}

Status status_from(const std::string& name) {
  if (name == "wrong") return Status::Wrong;
  if (name == "right") return Status::Right;
  if (name == "gave_up") return Status::GaveUp;
  return Status::Open;
}

}  // namespace

LessonSession::LessonSession(attn::io::LessonFile lesson) : lesson_(std::move(lesson)), answers_(lesson_.steps.size()) {}

bool LessonSession::revealed() const {
  const StepAnswer& a = current_answer();
  return !current().question || a.status == Status::Right || a.status == Status::GaveUp;
}

bool LessonSession::go_to(int step) {
  step = std::clamp(step, 0, steps() - 1);
  if (step == step_) return false;
  step_ = step;
  return true;
}

Verdict LessonSession::record(const Verdict& v, const std::string& given) {
  StepAnswer& a = answers_[static_cast<size_t>(step_)];
  ++a.attempts;
  a.status = v.right ? Status::Right : Status::Wrong;
  a.given = given;
  a.why = v.why;
  return v;
}

Verdict LessonSession::answer_cell(const attn::Trace& trace, int row, int col) {
  if (revealed()) return {current_answer().status == Status::Right, current_answer().why};
  return record(check_cell(*current().question, trace, row, col), "[" + std::to_string(row) + ", " + std::to_string(col) + "]");
}

Verdict LessonSession::answer_number(const attn::Trace& trace, double value, const std::string& typed) {
  if (revealed()) return {current_answer().status == Status::Right, current_answer().why};
  return record(check_number(*current().question, trace, value), typed);
}

Verdict LessonSession::answer_choice(int index) {
  if (revealed()) return {current_answer().status == Status::Right, current_answer().why};
  const auto& q = *current().question;
  const std::string given = index >= 0 && index < static_cast<int>(q.choices.size()) ? q.choices[static_cast<size_t>(index)] : "";
  return record(check_choice(q, index), given);
}

Verdict LessonSession::answer_head(const std::vector<attn::train::HeadScore>& scores, int layer, int head) {
  if (revealed()) return {current_answer().status == Status::Right, current_answer().why};
  const Verdict v = check_head(*current().question, scores, layer, head);
  if (!v.not_yet) return record(v, "layer " + std::to_string(layer) + ", head " + std::to_string(head));
  answers_[static_cast<size_t>(step_)].why = v.why;
  return v;
}

void LessonSession::reopen(int step) {
  if (step >= 0 && step < steps()) answers_[static_cast<size_t>(step)] = StepAnswer{};
}

void LessonSession::give_up() { give_up("Here is the answer."); }

void LessonSession::give_up(const std::string& why) {
  if (revealed()) return;
  StepAnswer& a = answers_[static_cast<size_t>(step_)];
  a.status = Status::GaveUp;
  a.why = why;
}

int LessonSession::answered_right() const {
  return static_cast<int>(std::count_if(answers_.begin(), answers_.end(), [](const StepAnswer& a) { return a.status == Status::Right; }));
}

nlohmann::json LessonSession::progress() const {
  nlohmann::json answers = nlohmann::json::object();
  for (size_t i = 0; i < answers_.size(); ++i) {
    const StepAnswer& a = answers_[i];
    if (a.status == Status::Open && a.attempts == 0) continue;
    answers[std::to_string(i)] = {{"status", status_name(a.status)}, {"attempts", a.attempts}, {"given", a.given}, {"why", a.why}};
  }
  return {{"step", step_}, {"answers", answers}};
}

void LessonSession::restore(const nlohmann::json& p) {
  if (!p.is_object()) return;
  // progress() leaves out questions not yet tried: they are open again, not
  // as the moment before left them (a slide export reveals every answer).
  for (StepAnswer& a : answers_) a = StepAnswer{};
  if (p.contains("answers") && p["answers"].is_object()) {
    for (const auto& item : p["answers"].items()) {
      const nlohmann::json& a = item.value();
      int index = -1;
      try {
        index = std::stoi(item.key());
      } catch (const std::exception&) {
        continue;
      }
      if (index < 0 || index >= steps() || !a.is_object() || !lesson_.steps[static_cast<size_t>(index)].question) continue;
      StepAnswer& to = answers_[static_cast<size_t>(index)];
      to.status = a.contains("status") && a["status"].is_string() ? status_from(a["status"].get<std::string>()) : Status::Open;
      to.attempts = a.contains("attempts") && a["attempts"].is_number_integer() ? std::max(0, a["attempts"].get<int>()) : 0;
      to.given = a.contains("given") && a["given"].is_string() ? a["given"].get<std::string>() : "";
      to.why = a.contains("why") && a["why"].is_string() ? a["why"].get<std::string>() : "";
    }
  }
  // Resume where the student was, but never past a question not yet settled.
  const int wanted = p.contains("step") && p["step"].is_number_integer() ? p["step"].get<int>() : 0;
  step_ = 0;
  while (step_ < std::clamp(wanted, 0, steps() - 1) && revealed()) ++step_;
}

}  // namespace model
