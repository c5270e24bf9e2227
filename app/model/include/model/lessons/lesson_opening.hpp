// Opening a lesson: --lesson, File > Open lesson, the start page and the
// Lessons menu ask for it; the app checks it in the background
// (model::LessonLoader) while the window keeps drawing, then starts it or
// says why it cannot. A run that pictures a lesson (--screenshot and the
// like) checks it at once instead: its first frame needs the lesson.
#pragma once

#include <exception>
#include <string>

#include "model/document/app_state.hpp"
#include "model/lessons/lesson_state.hpp"

namespace model::actions {

// Asks for the lesson at `path` to be checked and started; `step` (from 1)
// is entered once it starts, 0: where the student left it.
void request_lesson(LessonState& l, const std::string& path, int step = 0);
// The user pressed Cancel: the check stops and the current document stays.
void cancel_lesson_check(LessonState& l);

// A check finished: the lesson starts (at the asked step), or s.message says
// why it cannot. A step past the lesson's end is said too; the lesson then
// starts where the student left it.
void lesson_checked(AppState& s, LessonState& l, std::optional<attn::io::LessonFile> lesson, const std::string& problem);

// Checks and starts the lesson now, on this thread (pictures). Returns false
// with s.message set when it cannot start.
bool open_lesson_now(AppState& s, LessonState& l, const std::string& path);

// Why a lesson cannot start, from what load_lesson threw: every problem of a
// LessonError, or the reason the file could not be read.
std::string lesson_problem_message(const std::exception& e);

// "--step 9: the lesson "T" has 5 steps (1 to 5)", or "" when `step` (from
// 1; 0 for none) is one of its steps.
std::string step_out_of_range(const attn::io::LessonFile& lesson, int step);

// What the window says while a lesson is checked: "Checking lesson
// big.json… step 3 of 500" ("" when none is).
std::string lesson_check_text(const LessonState& l);

}  // namespace model::actions
