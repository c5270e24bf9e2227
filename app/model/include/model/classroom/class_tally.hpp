// What the class answered, counted for the projector and the CSV: a bar per
// choice, a heat map over the grid's cells, or a histogram of the numbers
// with the true value marked; and, once revealed, the share right.
#pragma once

#include <optional>
#include <string>
#include <vector>
#include <utility>

#include "model/classroom/class_session.hpp"

namespace model {

struct ClassTally {
  ClassQuestion::Form form = ClassQuestion::Form::Choice;
  int answers = 0;
  int right = -1;                   // -1 until revealed
  std::vector<int> choice_counts;   // Choice: one per choice
  int right_choice = -1;            // Choice, once revealed
  std::vector<std::pair<int, int>> right_cells;  // Cell, once revealed
  std::vector<int> cell_counts;     // Cell: rows * cols, row by row
  // Number: `bins` counts over [low, high), the last bin closed, and the
  // true value once revealed (the range then covers it too).
  std::vector<int> bins;
  double low = 0, high = 0;
  std::optional<double> truth;
};

// The counts of one question; numbers fall into `number_bins` bins.
ClassTally tally(const QuestionRecord& r, int number_bins = 12);

// The session as CSV, a row per question asked: step, form, phase, prompt,
// answers, right, share right, and the counts (choices and cells as
// "label=count" pairs, numbers as their mean and median). With
// `nicknames`, a second table lists each student's answers by nickname.
// Fields are quoted as RFC 4180 says, and a field that a spreadsheet would
// run as a formula (= + - @ first) is prefixed with a quote mark.
std::string session_csv(const ClassSession& s, bool nicknames);

// Judging a phone's answer as the lesson judges the window's, against the
// numbers the scene computes, and what the tally marks as the truth. The
// judge reads `trace`, which must outlive it: it is meant for reveal, at once.
AnswerJudge lesson_judge(const attn::io::LessonQuestion& q, const attn::Trace& trace);
Truth lesson_truth(const attn::io::LessonQuestion& q, const attn::Trace& trace);

}  // namespace model
