// A student's way through one lesson: the step they are on and what they
// answered at each step. Next opens only once the step's question is
// answered right or given up ("show me"), so every question is met; Back is
// always open. Serialises to the per-lesson progress kept between runs.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "attn/io/lesson_file.hpp"
#include "model/lessons/lesson_answers.hpp"

namespace model {

struct StepAnswer {
  enum class Status { Open, Wrong, Right, GaveUp };
  Status status = Status::Open;
  int attempts = 0;
  std::string given;  // what the student answered last, as shown
  std::string why;    // the last verdict's sentence
};

class LessonSession {
 public:
  explicit LessonSession(attn::io::LessonFile lesson);

  const attn::io::LessonFile& lesson() const { return lesson_; }
  int step() const { return step_; }
  int steps() const { return static_cast<int>(lesson_.steps.size()); }
  const attn::io::LessonStep& current() const { return lesson_.steps[static_cast<size_t>(step_)]; }
  const StepAnswer& answer(int step) const { return answers_[static_cast<size_t>(step)]; }
  const StepAnswer& current_answer() const { return answer(step_); }

  // The current step's question is settled (or it has none): grids show.
  bool revealed() const;
  bool can_next() const { return revealed() && step_ + 1 < steps(); }
  bool can_back() const { return step_ > 0; }
  // Moves to `step` (clamped). Returns true when the step changed.
  bool go_to(int step);

  // Records an answer to the current question; returns the verdict. Ignored
  // (and returns the last verdict) once the question is settled.
  Verdict answer_cell(const attn::Trace& trace, int row, int col);
  Verdict answer_number(const attn::Trace& trace, double value, const std::string& typed);
  Verdict answer_choice(int index);
  // A head question: `not_yet` verdicts keep the question open (status
  // unchanged, no attempt counted) and only show their sentence.
  Verdict answer_head(const std::vector<attn::train::HeadScore>& scores, int layer, int head);
  void give_up();
  // Gives up with a sentence saying what the answer is (a head question's
  // answer depends on the model, so the caller words it).
  void give_up(const std::string& why);

  // Opens step `step`'s question again (a class asks it afresh, though the
  // teacher answered it when rehearsing): its answer and attempts are cleared.
  void reopen(int step);

  int answered_right() const;  // questions answered right, for the start page
  // {"step": n, "answers": {"3": {"status": "right", "attempts": 2, "given": "0.34"}}}
  nlohmann::json progress() const;
  // Restores progress saved by progress(); ignores what does not fit this lesson.
  void restore(const nlohmann::json& progress);

 private:
  Verdict record(const Verdict& v, const std::string& given);

  attn::io::LessonFile lesson_;
  int step_ = 0;
  std::vector<StepAnswer> answers_;
};

}  // namespace model
