// What lessons do to the app: start one (at the step the student reached),
// enter a step (its scene becomes the document, its view is applied), answer
// its question and move on. Progress is saved after every change.
#pragma once

#include "model/document/app_state.hpp"
#include "model/lessons/lesson_state.hpp"
#include "model/animation/timeline.hpp"

namespace model {

namespace actions {

// Starts `lesson`, resuming its saved progress; the start page closes.
void start_lesson(AppState& s, LessonState& l, attn::io::LessonFile lesson);
// Enters step `step` (from 0) of the running lesson. A step with "train"
// opens the Train view with its settings (a fresh run only when they differ
// from the current ones; the student presses Train); any other step closes it.
void lesson_step(AppState& s, LessonState& l, int step);
void close_lesson(AppState& s, LessonState& l);

// Answers the current question; the verdict is kept in the session. A
// settled number question pins the inspector on its cell (the arithmetic).
void answer_lesson_cell(LessonState& l, const attn::Trace& trace, int row, int col);
void answer_lesson_number(AppState& s, LessonState& l, const attn::Trace& trace);  // l.answer_text
void answer_lesson_choice(LessonState& l);                            // l.answer_choice
// A head question: (layer, head) was clicked in the Train view while it
// showed a snapshot with these scores.
void answer_lesson_head(LessonState& l, const std::vector<attn::train::HeadScore>& scores, int layer, int head);
// "Show me"; a head question names the head from l.shown_scores.
void give_up_lesson(AppState& s, LessonState& l);

// A presenter's clicker (Space, Right or Page Down while presenting a
// lesson; Page Down in any lesson). Each press goes one step further
// through the lesson: the step's animation, one computation step at a time,
// up to the end of what the step is about; then the answer to its question
// (as "Show me"); then the next lesson step. `trace` may be null while the
// step's scene is still being computed: the animation part is skipped.
void clicker_next(AppState& s, LessonState& l, const attn::Trace* trace, const Timeline& tl);
// Back the same way (Left or Page Up): the animation back to the start of
// the step's stretch, then the lesson step before, shown as it ends.
void clicker_back(AppState& s, LessonState& l, const attn::Trace* trace, const Timeline& tl);

}  // namespace actions

// The current lesson question is a "head" question not yet settled: a click
// on a head in the Train view answers it, and the view keeps the scores
// that would give the answer away to itself.
bool lesson_head_question_open(const LessonState& l);
// Whether the step shown asks a question not yet answered (the Train view
// then keeps which head is strongest, and why it attends, to itself).
bool lesson_question_open(const LessonState& l);

// The row of `stage` the open lesson question asks about, where a hidden
// grid puts its "?" (-1: none, or the whole grid).
int question_row(const LessonState& l, const attn::Stage& stage);

// The stages the current lesson question keeps hidden (none once it is
// answered or given up, or without a lesson or question).
std::vector<attn::StageKind> lesson_hidden_kinds(const LessonState& l, const attn::Trace& trace);

// The moment a step's view asks for on this timeline, and where a play range
// stops (-1: no range).
struct StepTiming {
  double t = 0;
  double play_to = -1;
};
StepTiming step_timing(const attn::io::LessonView& view, const attn::Trace& trace, const Timeline& tl);

// The stretch of the animation a step is about, for exporting the step as an
// animation: its play range; else the steps of its focus stage (every head);
// else of the stage whose end it shows; else the whole timeline.
struct StepRange {
  double from = 0, to = 0;
};
StepRange step_range(const attn::io::LessonView& view, const attn::Trace& trace, const Timeline& tl);

// Applies a pending view_request once the trace and timeline exist.
void apply_view_request(AppState& s, LessonState& l, const attn::Trace& trace, const Timeline& tl);

}  // namespace model
