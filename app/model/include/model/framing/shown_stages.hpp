// Which stages the canvas lays out. One rule for the window, presentation
// and exports, so a lesson step looks the same on the teacher's desk and on
// the projector: a step shows its own stage (every head it asks about), that
// stage's inputs and every stage the step names (highlights, the question's
// grid); presenting with no step focus follows the animation; otherwise a
// double-clicked title zooms, and with none of these every stage shows.
#pragma once

#include <vector>

#include "model/animation/animation.hpp"
#include "model/document/app_state.hpp"
#include "model/lessons/lesson_state.hpp"
#include "model/animation/timeline.hpp"

namespace model {

// Indices into trace.stages, in trace order without repeats; empty: all.
std::vector<int> shown_stages(const AppState& s, const LessonState& l, const attn::Trace& trace, const Timeline& tl, const Frame& frame);

// The stages a lesson step names: its highlights and its question's grid,
// on the heads that are shown (indices into trace.stages).
std::vector<int> stages_named_by_step(const AppState& s, const LessonState& l, const attn::Trace& trace);

// What a step is about, without the inputs shown_stages() adds: the stages
// it names, else its view's stage on the heads in view. Empty outside a
// lesson step with a stage.
std::vector<int> stages_step_is_about(const AppState& s, const LessonState& l, const attn::Trace& trace);

}  // namespace model
