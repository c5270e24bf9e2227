// The lesson panel: where the student is, what the step says, its question
// (predict, then reveal) and Back / Next. It only asks; checking answers and
// moving between steps are viz::actions (lesson_actions.hpp), tested
// without a window.
#include "lessons/lesson_panel.hpp"

#include <imgui.h>
#include <imgui_stdlib.h>

#include "panels/editor_panel.hpp"
#include "panels/rich_text_view.hpp"
#include "gl/theme_style.hpp"
#include "viz/lesson_actions.hpp"
#include "panels/tiled_window.hpp"

namespace viz {
namespace {

using attn::io::LessonQuestion;
using Status = StepAnswer::Status;

const ThemePalette& palette_of(const AppState& state) { return palette(state.view.colour.theme); }

// One dot per step: filled up to here, a ring around this step.
void progress_dots(const LessonSession& l, const ThemePalette& pal) {
  ImDrawList* list = ImGui::GetWindowDrawList();
  const float r = ImGui::GetFontSize() * 0.28f, gap = r * 3;
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const float width = ImGui::GetContentRegionAvail().x;
  const int per_line = std::max(1, static_cast<int>(width / gap));
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

void question_box(AppState& state, const FontSet& fonts, const attn::Trace* trace, WidgetProbe* probe) {
  LessonSession& l = *state.lesson;
  const LessonQuestion& q = *l.current().question;
  const StepAnswer& a = l.current_answer();
  const float width = ImGui::GetContentRegionAvail().x;
  const ThemePalette& pal = palette_of(state);
  const ImVec4 muted = to_imvec4(pal.muted), right_colour = to_imvec4(pal.right);
  ImGui::Spacing();
  ImGui::TextColored(to_imvec4(pal.emphasis), "Question");
  draw_rich_text(q.prompt, fonts, width, pal);
  const bool settled = l.revealed();
  if (!settled) {
    switch (q.kind) {
      case LessonQuestion::Kind::Cell:
        ImGui::PushTextWrapPos(0);
        ImGui::TextColored(muted, "%s", cell_hint(q, trace).c_str());
        ImGui::PopTextWrapPos();
        break;
      case LessonQuestion::Kind::Number: {
        ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7);
        const bool enter = ImGui::InputText("##answer", &state.answer_text,
                                            ImGuiInputTextFlags_CharsScientific | ImGuiInputTextFlags_EnterReturnsTrue);
        probe_item(probe, "lesson:answer");
        ImGui::SameLine();
        if ((ImGui::Button("Check") || enter) && trace) actions::answer_lesson_number(state, *trace);
        probe_item(probe, "lesson:check");
        break;
      }
      case LessonQuestion::Kind::Choice:
        for (size_t i = 0; i < q.choices.size(); ++i) {
          ImGui::RadioButton((q.choices[i] + "##c" + std::to_string(i)).c_str(), &state.answer_choice, static_cast<int>(i));
          probe_item(probe, "lesson:choice" + std::to_string(i));
        }
        ImGui::BeginDisabled(state.answer_choice < 0);
        if (ImGui::Button("Check")) actions::answer_lesson_choice(state);
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
  if (a.status != Status::Open || !a.why.empty()) {
    ImGui::PushTextWrapPos(0);
    const bool right = a.status == Status::Right;
    if (a.status == Status::GaveUp || a.status == Status::Open) ImGui::TextColored(muted, "%s", a.why.c_str());
    else ImGui::TextColored(right ? right_colour : to_imvec4(pal.error), "%s", a.why.c_str());
    ImGui::PopTextWrapPos();
  }
  if (!settled) {
    if (a.status == Status::Wrong) ImGui::TextColored(muted, "Try again, or:");
    if (ImGui::SmallButton("Show me")) actions::give_up_lesson(state);
    probe_item(probe, "lesson:show_me");
    editor_tooltip("Give up and reveal the answer");
  } else {
    if (q.kind == LessonQuestion::Kind::Choice)
      ImGui::TextColored(right_colour, "Answer: %s", q.choices[static_cast<size_t>(q.answer)].c_str());
    if (q.kind == LessonQuestion::Kind::Number && trace)
      ImGui::TextColored(muted, "The inspector shows how it is computed.");
    if (q.kind == LessonQuestion::Kind::Head && !state.train.shown_scores.empty()) {
      const attn::train::HeadScore best = attn::train::best_induction_head(state.train.shown_scores);
      if (ImGui::SmallButton("Open this head in the pipeline view"))
        state.train.open_in_pipeline = TrainUi::OpenRequest{best.layer, best.head};
      probe_item(probe, "lesson:open_head");
    }
    if (!q.explain.empty()) draw_rich_text(q.explain, fonts, width, pal);
  }
}

}  // namespace

void draw_lesson_panel(ImVec2 pos, ImVec2 size, AppState& state, const FontSet& fonts, const attn::Trace* trace,
                       WidgetProbe* probe) {
  if (!state.lesson) return;
  LessonSession& l = *state.lesson;
  ImGui::SetNextWindowPos(pos);
  ImGui::SetNextWindowSize(size);
  begin_tiled_window("Lesson", ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                                      ImGuiWindowFlags_NoSavedSettings);
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
  draw_rich_text(step.text, fonts, width, pal);
  if (step.question) question_box(state, fonts, trace, probe);

  ImGui::Separator();
  ImGui::BeginDisabled(!l.can_back());
  if (ImGui::Button("< Back")) actions::lesson_step(state, l.step() - 1);
  ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::BeginDisabled(!l.can_next());
  if (ImGui::Button("Next >")) actions::lesson_step(state, l.step() + 1);
  probe_item(probe, "lesson:next");
  ImGui::EndDisabled();
  if (!l.revealed()) editor_tooltip("Answer the question first (or press Show me)");
  ImGui::SameLine();
  ImGui::TextColored(muted, "step %d of %d", l.step() + 1, l.steps());
  if (l.step() + 1 == l.steps() && l.revealed()) {
    ImGui::TextColored(to_imvec4(pal.right), "Lesson complete: %d of %d questions right.", l.answered_right(), l.lesson().questions());
    if (ImGui::SmallButton("Close the lesson")) actions::close_lesson(state);
  }
  ImGui::End();
}

}  // namespace viz
