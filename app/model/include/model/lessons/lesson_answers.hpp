// Checking a student's answer to a lesson question against the numbers the
// scene really computes (so an answer stays right after the step's edits),
// and which stages stay hidden until it is answered. Pure functions.
#pragma once

#include <string>
#include <vector>

#include "attn/io/lesson_file.hpp"
#include "attn/train/trainer.hpp"

namespace model {

struct Verdict {
  bool right = false;
  std::string why;  // one or two sentences with the numbers, shown under the question
  bool not_yet = false;  // neither right nor wrong: the question cannot be judged yet and stays open
};

// The stage a question (or view) means: `head` -1 tries the shared stage, then head 0.
const attn::Stage* lesson_stage(const attn::Trace& trace, const attn::io::CellSpec& spec);

// The cells a "click a cell" question accepts (ties of "max" all count).
std::vector<std::pair<int, int>> right_cells(const attn::io::LessonQuestion& q, const attn::Trace& trace);

Verdict check_cell(const attn::io::LessonQuestion& q, const attn::Trace& trace, int row, int col);
Verdict check_number(const attn::io::LessonQuestion& q, const attn::Trace& trace, double value);
Verdict check_choice(const attn::io::LessonQuestion& q, int index);
// A "head" question: the student clicked (layer, head) while the Train view
// showed a snapshot with these per-head scores. Right when that head has the
// highest induction score and it reaches q.min_score; not_yet while no head
// reaches it (the model has not learned the pattern).
Verdict check_head(const attn::io::LessonQuestion& q, const std::vector<attn::train::HeadScore>& scores, int layer, int head);
// What "Show me" says for a head question: which head it is, from the scores.
std::string reveal_head(const attn::io::LessonQuestion& q, const std::vector<attn::train::HeadScore>& scores);

// The value a number question expects.
double expected_number(const attn::io::LessonQuestion& q, const attn::Trace& trace);

// Indices (into trace.stages) hidden while the question is open: the listed
// `hide` stages (every head), or by default the asked stage and every stage
// computed from it, so no later grid or its explanation gives the answer away.
std::vector<int> hidden_stages(const attn::io::LessonQuestion& q, const attn::Trace& trace);

}  // namespace model
