// A class session: the questions of a lesson answered by every student from
// their own phone, the counts the projector shows, and the reveal. This is
// the session's state only; the web server that students reach feeds it
// (one thread, under its own lock) and the window reads it.
//
// One answer per device and question. A student may change it while the
// question is open; the teacher locks it, reveals it (each answer is then
// judged right or wrong against the numbers the scene computes), re-opens
// or skips it. The whole session is JSON, so autosave can keep it across a
// crash and a restart resumes it under the same code.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "model/classroom/class_question.hpp"

namespace model {

enum class QuestionPhase { Open, Locked, Revealed, Skipped };
// "open", "locked", "revealed" or "skipped", as saved and in the CSV.
const char* phase_name(QuestionPhase p);

struct StudentAnswer {
  ClassAnswer answer;
  int changes = 0;              // times the student changed it while open
  std::optional<bool> right;    // set on reveal
};

struct QuestionRecord {
  ClassQuestion question;
  QuestionPhase phase = QuestionPhase::Open;
  std::map<std::string, StudentAnswer> answers;  // by device
  // Set on reveal, for the tally: the right choice, the right cells, or the value.
  int right_choice = -1;
  std::vector<std::pair<int, int>> right_cells;
  std::optional<double> true_number;
};

// Judges one answer on reveal: right or not.
using AnswerJudge = std::function<bool(const ClassAnswer&)>;
// What reveal learns of the truth, for the tally.
struct Truth {
  int choice = -1;
  std::vector<std::pair<int, int>> cells;
  std::optional<double> number;
};

class ClassSession {
 public:
  static constexpr int kMaxStudents = 500;
  static constexpr int kMaxNickname = 40;  // characters (UTF-8 code points)

  explicit ClassSession(std::string code);

  const std::string& code() const { return code_; }

  // A device joins (or rejoins: its nickname may change). "" or why not:
  // the class is full, the device id or nickname is not acceptable.
  std::string join(const std::string& device, const std::string& nickname);
  bool joined(const std::string& device) const { return students_.count(device) > 0; }
  int students() const { return static_cast<int>(students_.size()); }
  const std::string& nickname(const std::string& device) const;

  // The question of a lesson step becomes the current one, open. A step
  // asked before keeps its answers and is opened again.
  void ask(const ClassQuestion& q);
  // The class moved to lesson step `step`: its question becomes the current
  // one as it was left (locked, revealed...), or none when the step was never
  // asked. Returns whether it had been asked.
  bool show(int step);
  // "" or why the answer is refused: unknown device, no open question,
  // another step's question, or an answer that does not fit the form.
  std::string answer(const std::string& device, int step, const ClassAnswer& a);
  void lock();
  void reopen();
  void skip();
  void reveal(const AnswerJudge& judge, const Truth& truth);
  void end() { ended_ = true; }
  bool ended() const { return ended_; }

  const QuestionRecord* current() const;
  const std::vector<QuestionRecord>& asked() const { return asked_; }
  // The count the projector shows: "17 of 24 answered".
  int answered() const;

  nlohmann::json to_json() const;
  // The session as to_json wrote it; "" or what is wrong with it.
  static std::string from_json(const nlohmann::json& j, ClassSession* out);

 private:
  QuestionRecord* current_mut();

  std::string code_;
  std::map<std::string, std::string> students_;  // device -> nickname
  std::vector<QuestionRecord> asked_;            // in the order first asked
  int current_ = -1;                             // index into asked_
  bool ended_ = false;
};

// A short code for a session: six letters and digits without the look-alikes
// (0/O, 1/I/L), from the system's random source.
std::string new_session_code();
// "" or why a code chosen by hand is refused: 4 to 16 capital letters and
// digits (what a phone's code field accepts).
std::string session_code_problem(const std::string& code);
// Whether a device id is acceptable: 8 to 64 letters, digits, '-' or '_'.
bool valid_device_id(const std::string& device);
// "" or why a nickname is refused: longer than kMaxNickname characters, not
// UTF-8, or holding control characters. Escaping is left to whoever shows it.
std::string nickname_problem(const std::string& nickname);

}  // namespace model
