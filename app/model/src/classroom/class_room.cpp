// ClassRoom: the session behind one lock. A student's request is read into
// plain values before the lock is taken, and the reply built from a view
// taken under it.
#include "model/classroom/class_room.hpp"

#include <nlohmann/json.hpp>

namespace model {

std::string ClassRoom::code() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return session_.code();
}

std::string ClassRoom::join(const std::string& device, const std::string& nickname) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (session_.ended()) return "the session has ended";
  std::string problem = session_.join(device, nickname);
  if (problem.empty()) ++revision_;
  return problem;
}

std::string ClassRoom::answer(const std::string& device, const nlohmann::json& request) {
  const auto step = request.find("step");
  const auto given = request.find("answer");
  if (step == request.end() || !step->is_number_integer()) return "\"step\" is missing or not a whole number";
  if (given == request.end()) return "\"answer\" is missing";
  std::lock_guard<std::mutex> lock(mutex_);
  const QuestionRecord* r = session_.current();
  if (!r) return "no question is open";
  if (r->question.step != step->get<long long>()) return "that question is no longer asked";
  ClassAnswer a;
  if (std::string problem = read_answer(r->question, *given, &a); !problem.empty()) return problem;
  std::string problem = session_.answer(device, r->question.step, a);
  if (problem.empty()) ++revision_;
  return problem;
}

nlohmann::json ClassRoom::student_view(const std::string& device) const {
  std::lock_guard<std::mutex> lock(mutex_);
  nlohmann::json v = {{"joined", session_.joined(device)}, {"ended", session_.ended()}, {"question", nullptr}};
  const QuestionRecord* r = session_.current();
  if (!r || !session_.joined(device)) return v;
  v["question"] = question_json(r->question);
  v["phase"] = phase_name(r->phase);
  const auto mine = r->answers.find(device);
  v["mine"] = mine == r->answers.end() ? nlohmann::json(nullptr) : answer_json(r->question, mine->second.answer);
  if (r->phase == QuestionPhase::Revealed) {
    nlohmann::json truth = nlohmann::json::object();
    if (r->right_choice >= 0) truth["choice"] = r->right_choice;
    if (!r->right_cells.empty()) truth["cells"] = r->right_cells;
    if (r->true_number) truth["number"] = *r->true_number;
    v["truth"] = truth;
    v["right"] = mine == r->answers.end() || !mine->second.right ? nlohmann::json(nullptr) : nlohmann::json(*mine->second.right);
  }
  return v;
}

void ClassRoom::change(const std::function<void(ClassSession&)>& edit) {
  std::lock_guard<std::mutex> lock(mutex_);
  edit(session_);
  ++revision_;
}

void ClassRoom::read(const std::function<void(const ClassSession&)>& look) const {
  std::lock_guard<std::mutex> lock(mutex_);
  look(session_);
}

ClassSession ClassRoom::snapshot() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return session_;
}

std::uint64_t ClassRoom::revision() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return revision_;
}

}  // namespace model
