// The compare view following a lesson step (lesson_compare.hpp).
#include "model/compare/lesson_compare.hpp"

#include "model/compare/compare_actions.hpp"
#include "model/lessons/lesson_answers.hpp"

namespace model::actions {

void lesson_compare(CompareState& c, const std::optional<attn::io::LessonCompare>& compare) {
  if (!compare) {
    if (c.from_lesson) close_compare(c);
    return;
  }
  c.open = true;
  c.from_lesson = true;
  c.a.reset();  // the step's scene is the document
  c.b = compare->b;
  c.label_a = compare->label_a;
  c.label_b = compare->label_b;
  // The lesson's checks name a stage A and B both have (lesson_file.cpp).
  c.stage = attn::stage_kind_named(compare->stage).value_or(attn::StageKind::weights);
  c.head = 0;
  ++c.revision;
}

bool compare_click_answers(const LessonState& l, const CompareState& c, const attn::Trace& doc) {
  if (!c.open || c.a || !l.lesson || l.lesson->revealed()) return false;
  const auto& q = l.lesson->current().question;
  if (!q || q->kind != attn::io::LessonQuestion::Kind::Cell) return false;
  const attn::Stage* asked = lesson_stage(doc, q->target);
  return asked && asked->id == c.stage && (asked->head < 0 || asked->head == c.head);
}

}  // namespace model::actions
