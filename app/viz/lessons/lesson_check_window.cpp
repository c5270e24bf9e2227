// While a lesson is checked in the background: a small window over the
// canvas with the step being checked and Cancel. It does not block: the
// document on screen can still be explored, and Cancel keeps it.
#include <algorithm>

#include <imgui.h>

#include "lessons/lesson_panel.hpp"
#include "gl/theme_style.hpp"
#include "model_names.hpp"
#include "model/lessons/lesson_opening.hpp"

namespace viz {

void draw_lesson_check(ImVec2 pos, ImVec2 size, const AppState& state, LessonState& lessons, WidgetProbe* probe) {
  const std::string text = actions::lesson_check_text(lessons);
  if (text.empty()) return;
  const float font = ImGui::GetFontSize();
  const float width = std::min(size.x - 2 * font, font * 26);
  ImGui::SetNextWindowPos({pos.x + (size.x - width) / 2, pos.y + font * 3});
  ImGui::SetNextWindowSize({width, 0});
  ImGui::Begin("Opening a lesson", nullptr,
               ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoFocusOnAppearing);
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextWrapped("%s", text.c_str());
  probe_item(probe, "lesson_check_text");
  ImGui::PopTextWrapPos();
  const LessonOpening& o = lessons.opening;
  const float done = o.steps > 0 ? static_cast<float>(o.steps_done) / static_cast<float>(o.steps) : 0.0f;
  const float cancel_w = font * 6;
  ImGui::PushStyleColor(ImGuiCol_FrameBg, to_imvec4(palette(state.view.colour.theme).panel_border));
  ImGui::ProgressBar(done, {std::max(40.0f, ImGui::GetContentRegionAvail().x - cancel_w - ImGui::GetStyle().ItemSpacing.x), 0});
  ImGui::PopStyleColor();
  ImGui::SameLine();
  if (ImGui::Button("Cancel##lesson_check", {cancel_w, 0})) actions::cancel_lesson_check(lessons);
  probe_item(probe, "lesson_check_cancel");
  ImGui::End();
}

}  // namespace viz
