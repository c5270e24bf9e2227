// Lesson actions. Entering a step always rebuilds its scene from the lesson
// (the resolved scene carries every edit up to this step), so Back and Next
// show exactly what the lesson means, whatever the student changed before.
#include "model/lessons/lesson_actions.hpp"


#include <cstdlib>

#include "model/document/app_actions.hpp"
#include "model/lessons/lesson_answers.hpp"

namespace model {
namespace {

void save_progress(LessonState& l) {
  if (l.lesson) l.progress.put(l.lesson->lesson().id, l.lesson->progress());
}

Granularity granularity_of(const std::string& name, Granularity otherwise) {
  if (name == "stage") return Granularity::Stage;
  if (name == "row") return Granularity::Row;
  if (name == "cell") return Granularity::Cell;
  return otherwise;
}

// A settled number question shows its arithmetic: the inspector pins its cell.
void pin_answer_cell(AppState& s, const LessonState& l) {
  if (!l.lesson || !l.lesson->revealed()) return;
  const auto& q = l.lesson->current().question;
  if (!q || q->kind != attn::io::LessonQuestion::Kind::Number || q->target.stage.empty()) return;
  const std::optional<attn::StageKind> kind = attn::stage_kind_named(q->target.stage);
  if (kind) s.pinned = CellRef{{*kind, q->target.head}, q->target.row, q->target.col};
}

// Start of the stage the lesson names' first step and end of its last, in play order.
bool stage_span(const attn::Trace& trace, const Timeline& tl, const std::string& name, double* start, double* end) {
  const std::optional<attn::StageKind> id = attn::stage_kind_named(name);
  bool found = false;
  for (size_t k = 0; id && k < tl.stage_order.size(); ++k) {
    if (trace.stages[static_cast<size_t>(tl.stage_order[k])].id != *id) continue;
    *start = found ? std::min(*start, tl.spans[k].start) : tl.spans[k].start;
    *end = found ? std::max(*end, tl.spans[k].end) : tl.spans[k].end;
    found = true;
  }
  return found;
}

}  // namespace

namespace actions {

void start_lesson(AppState& s, LessonState& l, attn::io::LessonFile lesson) {
  const nlohmann::json saved = l.progress.get(lesson.id);
  l.lesson.emplace(std::move(lesson));
  l.lesson->restore(saved);
  l.files_opened = s.files_opened;
  s.show_start_page = false;
  s.view.show_editor = false;  // the lesson takes the left column; a step may show the editor
  lesson_step(s, l, l.lesson->step());
}

void lesson_step(AppState& s, LessonState& l, int step) {
  if (!l.lesson) return;
  l.lesson->go_to(step);
  const attn::io::LessonStep& st = l.lesson->current();
  show_scene(s, st.scene, l.lesson->lesson().title + " · step " + std::to_string(l.lesson->step() + 1));
  const attn::io::LessonView& v = st.view;
  s.view.head = v.heads ? *v.heads : -1;
  // A step about one stage shows that stage and its inputs, large; Escape
  // (or a double-click on its title) shows the whole pipeline.
  s.view.focus_stage.clear();
  const std::optional<attn::StageKind> focus = attn::stage_kind_named(v.focus.stage);
  if (!focus) s.view.zoom_stage.reset();
  else s.view.zoom_stage = attn::StageRef{*focus, v.focus.head};
  l.highlights = v.highlight;
  s.granularity = granularity_of(v.granularity, s.granularity);
  // The explore panels are a step's content: shown on the steps that name
  // them, not left over from an earlier step (lesson 05's "why scale" sat
  // over four later steps' grids).
  s.view.lesson_column = ViewOptions::kLessonColumn;  // widened again only if this step's text needs it
  PanelRequest panels;  // the features' panels (why_scale, hull, flash_tiles, kv_cache)
  for (const auto& [panel, shown] : v.panels) {
    if (panel == "editor") s.view.show_editor = shown;
    else if (panel == "inspector") s.view.show_inspector = shown;
    else if (shown) panels.names.push_back(panel);
  }
  s.view.panels = std::move(panels);
  l.view_request = v;
  l.view_request_at_end = false;
  l.answer_text.clear();
  l.answer_choice = -1;
  // A step that names a cell to inspect pins it (show_scene left no pin
  // from an earlier step) and shows the inspector at why it has its value.
  const std::optional<attn::StageKind> inspect = attn::stage_kind_named(v.inspect.stage);
  s.view.inspector_to_why = inspect.has_value();
  if (inspect) {
    s.pinned = CellRef{{*inspect, v.inspect.head}, v.inspect.row, v.inspect.col};
    s.view.show_inspector = true;
  }
  pin_answer_cell(s, l);
  save_progress(l);
}

void close_lesson(AppState& s, LessonState& l) {
  save_progress(l);
  l.lesson.reset();
  l.highlights.clear();
  s.view.zoom_stage.reset();
  s.view.fit_pending = true;
}

void answer_lesson_cell(LessonState& l, const attn::Trace& trace, int row, int col) {
  if (!l.lesson) return;
  l.lesson->answer_cell(trace, row, col);
  save_progress(l);
}

void answer_lesson_number(AppState& s, LessonState& l, const attn::Trace& trace) {
  if (!l.lesson) return;
  char* end = nullptr;
  const double v = std::strtod(l.answer_text.c_str(), &end);
  if (end == l.answer_text.c_str()) return;  // nothing typed that reads as a number
  l.lesson->answer_number(trace, v, l.answer_text);
  pin_answer_cell(s, l);
  save_progress(l);
}

void answer_lesson_choice(LessonState& l) {
  if (!l.lesson || l.answer_choice < 0) return;
  l.lesson->answer_choice(l.answer_choice);
  save_progress(l);
}

void answer_lesson_head(LessonState& l, const std::vector<attn::train::HeadScore>& scores, int layer, int head) {
  if (!l.lesson) return;
  if (!lesson_head_question_open(l)) return;
  l.lesson->answer_head(scores, layer, head);
  save_progress(l);
}

void give_up_lesson(AppState& s, LessonState& l) {
  if (!l.lesson) return;
  const auto& q = l.lesson->current().question;
  if (q && q->kind == attn::io::LessonQuestion::Kind::Head) l.lesson->give_up(reveal_head(*q, l.shown_scores));
  else l.lesson->give_up();
  pin_answer_cell(s, l);
  save_progress(l);
}

void clicker_next(AppState& s, LessonState& l, const attn::Trace* trace, const Timeline& tl) {
  if (!l.lesson) return;
  if (trace && !tl.steps.empty() && !l.view_request) {
    const StepRange r = step_range(l.lesson->current().view, *trace, tl);
    if (s.clock.t < r.to - 1e-9) {
      s.clock.step_forward(tl);
      if (s.clock.t > r.to) s.clock.scrub(tl, r.to);
      return;
    }
  }
  if (!l.lesson->revealed()) {
    give_up_lesson(s, l);
    return;
  }
  if (l.lesson->can_next()) lesson_step(s, l, l.lesson->step() + 1);
}

void clicker_back(AppState& s, LessonState& l, const attn::Trace* trace, const Timeline& tl) {
  if (!l.lesson) return;
  if (trace && !tl.steps.empty() && !l.view_request) {
    const StepRange r = step_range(l.lesson->current().view, *trace, tl);
    if (s.clock.t > r.from + 1e-9 && s.clock.t <= r.to + 1e-9 && r.to - r.from < tl.total) {
      s.clock.step_back(tl);
      if (s.clock.t < r.from) s.clock.scrub(tl, r.from);
      return;
    }
  }
  if (!l.lesson->can_back()) return;
  lesson_step(s, l, l.lesson->step() - 1);
  l.view_request_at_end = true;
}

}  // namespace actions

bool lesson_head_question_open(const LessonState& l) {
  if (!l.lesson || l.lesson->revealed()) return false;
  const auto& q = l.lesson->current().question;
  return q && q->kind == attn::io::LessonQuestion::Kind::Head;
}

bool lesson_question_open(const LessonState& l) {
  return l.lesson && !l.lesson->revealed() && l.lesson->current().question;
}

int question_row(const LessonState& l, const attn::Stage& stage) {
  if (!l.lesson || l.lesson->revealed() || !l.lesson->current().question) return -1;
  const attn::io::CellSpec& t = l.lesson->current().question->target;
  if (attn::stage_kind_named(t.stage) != stage.id || (t.head >= 0 && stage.head >= 0 && t.head != stage.head)) return -1;
  return t.row >= 0 && t.row < stage.value.rows() ? t.row : -1;
}

std::vector<attn::StageKind> lesson_hidden_kinds(const LessonState& l, const attn::Trace& trace) {
  std::vector<attn::StageKind> kinds;
  if (!l.lesson || l.lesson->revealed() || !l.lesson->current().question) return kinds;
  for (int i : hidden_stages(*l.lesson->current().question, trace)) kinds.push_back(trace.stages[static_cast<size_t>(i)].id);
  return kinds;
}

StepTiming step_timing(const attn::io::LessonView& v, const attn::Trace& trace, const Timeline& tl) {
  StepTiming out{tl.total, -1};
  double start = 0, end = 0;
  switch (v.time) {
    case attn::io::LessonView::Time::End: out.t = tl.total; break;
    case attn::io::LessonView::Time::Start: out.t = 0; break;
    case attn::io::LessonView::Time::Seconds: out.t = std::min(v.seconds, tl.total); break;
    case attn::io::LessonView::Time::StageEnd:
      if (stage_span(trace, tl, v.time_stage, &start, &end)) out.t = end;
      break;
  }
  double from_start = 0, from_end = 0, to_start = 0, to_end = 0;
  if (!v.play_from.empty() && stage_span(trace, tl, v.play_from, &from_start, &from_end) &&
      stage_span(trace, tl, v.play_to, &to_start, &to_end)) {
    out.t = from_start;
    out.play_to = std::max(to_end, from_start);
  }
  return out;
}

StepRange step_range(const attn::io::LessonView& v, const attn::Trace& trace, const Timeline& tl) {
  const StepTiming timing = step_timing(v, trace, tl);
  if (timing.play_to >= 0) return {timing.t, timing.play_to};
  double start = 0, end = 0;
  if (!v.focus.stage.empty() && stage_span(trace, tl, v.focus.stage, &start, &end)) return {start, end};
  if (v.time == attn::io::LessonView::Time::StageEnd && stage_span(trace, tl, v.time_stage, &start, &end))
    return {start, end};
  return {0, tl.total};
}

void apply_view_request(AppState& s, LessonState& l, const attn::Trace& trace, const Timeline& tl) {
  if (!l.view_request) return;
  const StepTiming timing = step_timing(*l.view_request, trace, tl);
  if (timing.play_to >= 0 && l.view_request_at_end) s.clock.scrub(tl, timing.play_to);  // came back to it
  else if (timing.play_to >= 0) s.clock.play_range(tl, timing.t, timing.play_to);
  else s.clock.scrub(tl, timing.t);
  l.view_request.reset();
  l.view_request_at_end = false;
}

}  // namespace model
