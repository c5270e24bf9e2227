// The lesson panel: where the student is, what the step says, its question
// (predict, then reveal) and Back / Next. It only asks; checking answers and
// moving between steps are viz::actions (lesson_actions.hpp), tested
// without a window.
#include "lessons/lesson_panel.hpp"

#include <cstdio>

#include <imgui.h>
#include <imgui_stdlib.h>

#include "widgets/tooltip.hpp"
#include "widgets/rich_text_view.hpp"
#include "gl/theme_style.hpp"
#include "model_names.hpp"
#include "model/lessons/lesson_actions.hpp"
#include "model/layout/text_fit.hpp"
#include "widgets/tiled_window.hpp"

namespace viz {
namespace {

using attn::io::LessonQuestion;
using Status = StepAnswer::Status;

const ThemePalette& palette_of(const AppState& state) { return palette(state.view.colour.theme); }

// One dot per step: filled up to here, a ring around this step. A lesson
// too long for a few rows of dots gets a bar instead: every dot is a dozen
// vertices, and a draw list holds 65,536.
void progress_dots(const LessonSession& l, const ThemePalette& pal) {
  ImDrawList* list = ImGui::GetWindowDrawList();
  const float r = ImGui::GetFontSize() * 0.28f, gap = r * 3;
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const float width = ImGui::GetContentRegionAvail().x;
  const int per_line = std::max(1, static_cast<int>(width / gap));
  if (l.steps() > 3 * per_line) {
    const float h = r * 1.6f;
    const float done = width * static_cast<float>(l.step() + (l.revealed() ? 1 : 0)) / static_cast<float>(l.steps());
    list->AddRectFilled(at, {at.x + width, at.y + h}, to_imgui(pal.muted) & 0x60FFFFFF, h / 2);
    list->AddRectFilled(at, {at.x + done, at.y + h}, to_imgui(pal.emphasis), h / 2);
    ImGui::Dummy({width, h + 2});
    return;
  }
  for (int i = 0; i < l.steps(); ++i) {
    const ImVec2 c(at.x + r + static_cast<float>(i % per_line) * gap, at.y + r + 1 + static_cast<float>(i / per_line) * gap);
    const bool done = i < l.step() || (i == l.step() && l.revealed());
    const ImU32 colour = l.lesson().steps[static_cast<size_t>(i)].question ? to_imgui(pal.emphasis) : to_imgui(pal.muted);
    if (done) list->AddCircleFilled(c, r, colour);
    else list->AddCircle(c, r, colour, 12, 1.5f);
    if (i == l.step()) list->AddCircle(c, r + 3, to_imgui(pal.step), 16, 2.0f);
  }
  ImGui::Dummy({width, static_cast<float>((l.steps() - 1) / per_line + 1) * gap});
}

// A radio button whose label wraps to the panel's width (ImGui's own keeps
// its label on one line, cut off by the panel's edge); the text is
// clickable too. Records the whole choice for --dump-layout.
void wrapped_choice(const std::string& text, int index, int* chosen, WidgetProbe* probe) {
  ImGui::BeginGroup();
  ImGui::RadioButton(("##c" + std::to_string(index)).c_str(), chosen, index);
  ImGui::SameLine(0, ImGui::GetStyle().ItemInnerSpacing.x);
  ImGui::PushTextWrapPos(0);
  ImGui::TextUnformatted(text.c_str());
  ImGui::PopTextWrapPos();
  if (ImGui::IsItemClicked()) *chosen = index;
  ImGui::EndGroup();
  probe_item(probe, "lesson:choice" + std::to_string(index));
}

std::string cell_hint(const LessonQuestion& q, const attn::Trace* trace) {
  std::string where = "the grid \"" + q.target.stage + "\"";
  if (trace) {
    if (const attn::Stage* s = lesson_stage(*trace, q.target)) {
      where = s->title + (s->head >= 0 && trace->dims.n_heads > 1 ? " (head " + std::to_string(s->head) + ")" : "");
      if (q.target.row >= 0 && q.target.row < static_cast<int>(s->row_labels.size()))
        where += ", row \"" + s->row_labels[static_cast<size_t>(q.target.row)] + "\"";
      if (q.target.col >= 0 && q.target.col < static_cast<int>(s->col_labels.size()))
        where += ", column \"" + s->col_labels[static_cast<size_t>(q.target.col)] + "\"";
    }
  }
  return "Click your answer on the canvas: a cell of " + where + ".";
}

void question_box(AppState& state, LessonState& lessons, TrainUi& train, const FontSet& fonts, const attn::Trace* trace, WidgetProbe* probe) {
  LessonSession& l = *lessons.lesson;
  const LessonQuestion& q = *l.current().question;
  const StepAnswer& a = l.current_answer();
  const float width = ImGui::GetContentRegionAvail().x;
  const ThemePalette& pal = palette_of(state);
  const ImVec4 muted = to_imvec4(pal.muted), right_colour = to_imvec4(pal.right);
  ImGui::Spacing();
  ImGui::TextColored(to_imvec4(pal.emphasis), "Question");
  draw_rich_text(q.prompt, fonts, width, pal);
  const bool settled = l.revealed();
  const bool slide = state.view.slide;
  if (slide && !settled) {
    // A slide asks without controls: the choices as a lettered list.
    if (q.kind == LessonQuestion::Kind::Choice)
      for (size_t i = 0; i < q.choices.size(); ++i) {
        ImGui::PushTextWrapPos(0);
        ImGui::Text("%c.  %s", static_cast<char>('A' + static_cast<int>(i % 26)), q.choices[i].c_str());
        ImGui::PopTextWrapPos();
        probe_item(probe, "lesson:choice" + std::to_string(i));
      }
  } else if (!settled) {
    switch (q.kind) {
      case LessonQuestion::Kind::Cell:
        ImGui::PushTextWrapPos(0);
        ImGui::TextColored(muted, "%s", cell_hint(q, trace).c_str());
        ImGui::PopTextWrapPos();
        break;
      case LessonQuestion::Kind::Number: {
        ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7);
        const bool enter = ImGui::InputText("##answer", &lessons.answer_text,
                                            ImGuiInputTextFlags_CharsScientific | ImGuiInputTextFlags_EnterReturnsTrue);
        probe_item(probe, "lesson:answer");
        ImGui::SameLine();
        if ((ImGui::Button("Check") || enter) && trace) actions::answer_lesson_number(state, lessons, *trace);
        probe_item(probe, "lesson:check");
        break;
      }
      case LessonQuestion::Kind::Choice:
        for (size_t i = 0; i < q.choices.size(); ++i) wrapped_choice(q.choices[i], static_cast<int>(i), &lessons.answer_choice, probe);
        ImGui::BeginDisabled(lessons.answer_choice < 0);
        if (ImGui::Button("Check")) actions::answer_lesson_choice(lessons);
        probe_item(probe, "lesson:check");
        ImGui::EndDisabled();
        break;
      case LessonQuestion::Kind::Head:
        ImGui::PushTextWrapPos(0);
        ImGui::TextColored(muted, "Click a head's grid in the Train view.");
        ImGui::PopTextWrapPos();
        break;
    }
  }
  // An open question may still carry a sentence: a head question not yet
  // answerable says why (keep training).
  if (!slide && (a.status != Status::Open || !a.why.empty())) {
    ImGui::PushTextWrapPos(0);
    const bool right = a.status == Status::Right;
    if (a.status == Status::GaveUp || a.status == Status::Open) ImGui::TextColored(muted, "%s", a.why.c_str());
    else ImGui::TextColored(right ? right_colour : to_imvec4(pal.error), "%s", a.why.c_str());
    ImGui::PopTextWrapPos();
  }
  // The right choice, wrapped: a long one ran past the panel's edge.
  const auto answer_line = [&] {
    ImGui::PushTextWrapPos(0);
    ImGui::TextColored(right_colour, "Answer: %s", q.choices[static_cast<size_t>(q.answer)].c_str());
    ImGui::PopTextWrapPos();
    probe_item(probe, "lesson:answer");
  };
  if (slide) {
    if (settled && q.kind == LessonQuestion::Kind::Choice) answer_line();
    if (settled && !q.explain.empty()) draw_rich_text(q.explain, fonts, width, pal);
  } else if (!settled) {
    if (a.status == Status::Wrong) ImGui::TextColored(muted, "Try again, or:");
    if (ImGui::SmallButton("Show me")) actions::give_up_lesson(state, lessons);
    probe_item(probe, "lesson:show_me");
    hover_tooltip("Give up and reveal the answer");
  } else {
    if (q.kind == LessonQuestion::Kind::Choice) answer_line();
    if (q.kind == LessonQuestion::Kind::Number && trace)
      ImGui::TextColored(muted, "The inspector shows how it is computed.");
    if (q.kind == LessonQuestion::Kind::Head && !lessons.shown_scores.empty()) {
      const attn::train::HeadScore best = attn::train::best_induction_head(lessons.shown_scores);
      if (ImGui::SmallButton("Open this head in the pipeline view"))
        train.open_in_pipeline = TrainUi::OpenRequest{best.layer, best.head};
      probe_item(probe, "lesson:open_head");
    }
    if (!q.explain.empty()) draw_rich_text(q.explain, fonts, width, pal);
  }
}

// Presenting: the step's text as large as the panel allows, never under
// kSlideTextPx; where that would not fit, the column widens (the next frame
// lays it out again) before the text shrinks below it.
constexpr float kSlideTextPx = 20;
void fit_presented_text(AppState& state, float used, float room, const FontSet& fonts) {
  const float smallest = std::min(1.0f, kSlideTextPx / std::max(fonts.ui_px(), 1.0f));
  ViewOptions& v = state.view;
  v.lesson_text_scale = fit_lesson_text(v.lesson_text_scale, used, room, smallest);
  if (used > room && v.lesson_text_scale <= smallest && v.lesson_column < ViewOptions::kWidestLessonColumn) {
    v.lesson_column = std::min(ViewOptions::kWidestLessonColumn, v.lesson_column + 0.04f);
    v.fit_pending = true;
  }
}

}  // namespace

void draw_lesson_panel(ImVec2 pos, ImVec2 size, AppState& state, LessonState& lessons, TrainUi& train, const FontSet& fonts, const attn::Trace* trace,
                       WidgetProbe* probe) {
  if (!lessons.lesson) return;
  LessonSession& l = *lessons.lesson;
  ImGui::SetNextWindowPos(pos);
  ImGui::SetNextWindowSize(size);
  begin_tiled_window("Lesson", ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                                      ImGuiWindowFlags_NoSavedSettings);
  // Presenting, the step must be read from the back of the room without
  // scrolling: its text is as large as the panel allows (fitted over the
  // frames, see fit_lesson_text), never above the presentation size.
  const bool presenting = state.view.presentation;
  if (presenting) ImGui::SetWindowFontScale(state.view.lesson_text_scale);
  if (probe) (*probe)["lesson:panel"] = ImVec4(pos.x, pos.y, pos.x + size.x, pos.y + size.y);
  const float width = ImGui::GetContentRegionAvail().x;
  const ThemePalette& pal = palette_of(state);
  const ImVec4 muted = to_imvec4(pal.muted);
  ImGui::PushTextWrapPos(0);
  ImGui::TextColored(muted, "%s", l.lesson().title.c_str());
  ImGui::PopTextWrapPos();
  progress_dots(l, pal);
  const attn::io::LessonStep& step = l.current();
  ImGui::PushFont(fonts.bold());
  ImGui::PushTextWrapPos(0);
  ImGui::Text("%d. %s", l.step() + 1, step.title.c_str());
  ImGui::PopTextWrapPos();
  ImGui::PopFont();
  // --dump-layout: one em of the step's text where it starts, so a test can
  // read the size it is drawn at (fitted to the panel while presenting).
  if (probe) {
    const ImVec2 at = ImGui::GetCursorScreenPos();
    (*probe)["lesson:em"] = ImVec4(at.x, at.y, at.x + ImGui::GetFontSize(), at.y + ImGui::GetFontSize());
  }
  draw_rich_text(step.text, fonts, width, pal);
  probe_item(probe, "lesson:text");
  if (step.question) question_box(state, lessons, train, fonts, trace, probe);

  if (state.view.slide) {  // a slide: where it is in the lesson, and no controls
    ImGui::Separator();
    ImGui::TextColored(muted, "step %d of %d", l.step() + 1, l.steps());
    probe_item(probe, "lesson:where");
    fit_presented_text(state, ImGui::GetCursorPosY() + ImGui::GetStyle().WindowPadding.y, size.y, fonts);
    ImGui::End();
    return;
  }
  ImGui::Separator();
  // The lesson's own Back and Next, named apart from the transport bar's
  // "< Step" and "Step >", which move through the animation.
  ImGui::BeginDisabled(!l.can_back());
  if (ImGui::Button("< Back")) actions::lesson_step(state, lessons, l.step() - 1);
  ImGui::EndDisabled();
  hover_tooltip("The lesson's previous step (Page Up)");
  ImGui::SameLine();
  ImGui::BeginDisabled(!l.can_next());
  if (ImGui::Button("Next >")) actions::lesson_step(state, lessons, l.step() + 1);
  probe_item(probe, "lesson:next");
  ImGui::EndDisabled();
  hover_tooltip(l.revealed() ? "The lesson's next step (Page Down)" : "Answer the question first (or press Show me)");
  // Beside the buttons where it fits, else under them: in the narrow lesson
  // column at 1024x768 "step 8 of 9" ran off the panel's edge. Presenting,
  // the column is wide and the step's text is fitted to the panel over
  // several frames, so the counter stays beside them (a line that came and
  // went while the text is fitted would shrink the text).
  char where[32];
  std::snprintf(where, sizeof where, "step %d of %d", l.step() + 1, l.steps());
  const float right_edge = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  if (presenting || ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + ImGui::CalcTextSize(where).x <= right_edge)
    ImGui::SameLine();
  ImGui::TextColored(muted, "%s", where);
  probe_item(probe, "lesson:where");
  if (presenting) {
    ImGui::PushTextWrapPos(0);
    ImGui::TextColored(muted, "%s", "Clicker, Space or Page Down: next; Page Up: back; Esc: leave");
    ImGui::PopTextWrapPos();
  }
  if (l.step() + 1 == l.steps() && l.revealed()) {
    ImGui::PushTextWrapPos(0);
    ImGui::TextColored(to_imvec4(pal.right), "Lesson complete: %d of %d questions right.", l.answered_right(), l.lesson().questions());
    ImGui::PopTextWrapPos();
    if (ImGui::SmallButton("Close the lesson")) actions::close_lesson(state, lessons);
  }
  if (presenting) {
    fit_presented_text(state, ImGui::GetCursorPosY() + ImGui::GetStyle().WindowPadding.y, size.y, fonts);
  }
  ImGui::End();
}

}  // namespace viz
