// A lesson's use of the compare view: a step that compares its scene with
// a variant, and a click on A that answers the step's cell question. Lessons
// sit above compare: they drive it, it knows nothing of them.
#pragma once

#include <optional>

#include "attn/io/lesson_file.hpp"
#include "attn/compute/trace.hpp"
#include "model/document/app_state.hpp"

namespace model::actions {

// A lesson step with a compare field: A = the step's scene (the document),
// B = its variant. A step without one closes a view a lesson opened.
void lesson_compare(AppState& s, const std::optional<attn::io::LessonCompare>& compare);


// True when a click on cell (r, c) of A answers the open lesson question:
// A is the document (the step's scene) and the question asks to click a
// cell of the stage and head the view shows. `doc` is the document's trace.
bool compare_click_answers(const AppState& s, const attn::Trace& doc);

}  // namespace model::actions
