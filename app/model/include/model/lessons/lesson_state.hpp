// The lessons' own state, kept by the lessons feature (lessons_feature.hpp)
// beside the document rather than in it: the lesson being taken, the one
// being checked before it starts, the student's progress, and what the
// current step asks of the view and of the answer fields. Lesson actions
// take it with the AppState they change (lesson_actions.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "attn/io/lesson_file.hpp"
#include "attn/train/trainer.hpp"
#include "model/lessons/lesson_session.hpp"
#include "model/settings/config_files.hpp"

namespace model {

// A lesson being checked in the background (model::LessonLoader,
// lesson_opening.hpp): the app starts the check of `request` and clears it;
// while it runs `path` names the file and steps_done of steps is its
// progress; cancel asks the app to stop it.
struct LessonOpening {
  std::string request, path;
  int start_step = 0;  // enter this step (from 1) once it starts; 0: where the student left it
  int steps_done = 0, steps = 0;
  bool cancel = false;
};

struct LessonState {
  // The lesson being taken. A step's scene becomes the document; its view is
  // applied on entering, and its timing once the step's trace exists.
  std::optional<LessonSession> lesson;
  LessonOpening opening;
  ProgressStore progress;                             // each lesson's answers, kept between runs
  std::vector<attn::io::CellSpec> highlights;         // cells the step outlines
  std::optional<attn::io::LessonView> view_request;   // timing still to apply
  bool view_request_at_end = false;  // apply it as the step ends (the clicker went back to it)
  std::string answer_text;           // the number being typed for a question
  int answer_choice = -1;            // the choice picked for a question
  // The Train view's per-head scores of the snapshot shown, copied by the
  // session each frame of a lesson, so "Show me" can name the induction head.
  std::vector<attn::train::HeadScore> shown_scores;
  // AppState::files_opened when the lesson started: the user opening another
  // document ends the lesson (lessons_feature.cpp).
  std::uint64_t files_opened = 0;
};

}  // namespace model
