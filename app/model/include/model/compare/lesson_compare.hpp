// The compare view following a lesson: a step with a compare field shows
// the step's scene (A, the document) beside its variant (B), and a click on
// A may answer the step's cell question. Compare sits above lessons: it
// reads the lesson step, and lessons know nothing of it.
#pragma once

#include <optional>

#include "attn/io/lesson_file.hpp"
#include "attn/compute/trace.hpp"
#include "model/compare/compare.hpp"
#include "model/lessons/lesson_state.hpp"

namespace model::actions {

// The step's compare field into the state: A = the step's scene (the
// document), B = its variant. A step without one closes a view a lesson opened.
void lesson_compare(CompareState& c, const std::optional<attn::io::LessonCompare>& compare);

// True when a click on cell (r, c) of A answers the open lesson question:
// A is the document (the step's scene) and the question asks to click a
// cell of the stage and head the view shows. `doc` is the document's trace.
bool compare_click_answers(const LessonState& l, const CompareState& c, const attn::Trace& doc);

}  // namespace model::actions
