// Lessons driving the compare view (lesson_compare.hpp).
#include "model/lessons/lesson_compare.hpp"

#include "model/compare/compare_actions.hpp"
#include "model/lessons/lesson_answers.hpp"

namespace model::actions {

void lesson_compare(AppState& s, const std::optional<attn::io::LessonCompare>& compare) {
  if (!compare) {
    if (s.compare.from_lesson) close_compare(s);
    return;
  }
  CompareState& c = s.compare;
  c.open = true;
  c.from_lesson = true;
  c.a.reset();  // the step's scene is the document
  c.b = compare->b;
  c.label_a = compare->label_a;
  c.label_b = compare->label_b;
  c.stage = compare->stage;
  c.head = 0;
  ++c.revision;
}

bool compare_click_answers(const AppState& s, const attn::Trace& doc) {
  const CompareState& c = s.compare;
  if (!c.open || c.a || !s.lesson || s.lesson->revealed()) return false;
  const auto& q = s.lesson->current().question;
  if (!q || q->kind != attn::io::LessonQuestion::Kind::Cell) return false;
  const attn::Stage* asked = lesson_stage(doc, q->target);
  return asked && name_of(asked->id) == c.stage && (asked->head < 0 || asked->head == c.head);
}

}  // namespace model::actions
