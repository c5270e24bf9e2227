// The start page: every lesson with its article and the student's progress,
// and a way into the free scene. Choosing a lesson loads it afresh (a file
// edited since start-up is read as it is now), in the background.

#include <imgui.h>

#include "lessons/lesson_panel.hpp"
#include "gl/theme_style.hpp"
#include "widgets/notice_lines.hpp"
#include "model_names.hpp"
#include "model/lessons/lesson_actions.hpp"
#include "model/lessons/lesson_opening.hpp"

namespace viz {
namespace {

std::string progress_line(const LessonEntry& e, const nlohmann::json& p) {
  if (!p.is_object() || !p.contains("step")) return "not started";
  int right = 0;
  if (p.contains("answers") && p["answers"].is_object())
    for (const auto& a : p["answers"].items())
      if (a.value().is_object() && a.value().value("status", "") == "right") ++right;
  const int step = p["step"].is_number_integer() ? p["step"].get<int>() + 1 : 1;
  return "at step " + std::to_string(step) + " of " + std::to_string(e.steps) + " · " + std::to_string(right) + " of " +
         std::to_string(e.questions) + " questions right";
}

}  // namespace

void draw_start_page(ImVec2 pos, ImVec2 size, AppState& state, LessonState& taken, const LessonCatalogue& lessons,
                     WidgetProbe* probe) {
  if (!state.show_start_page) return;
  const float font = ImGui::GetFontSize();
  const ImVec2 want(std::min(size.x - 2 * font, font * 40), 0);
  ImGui::SetNextWindowPos({pos.x + (size.x - want.x) / 2, pos.y + font * 2});
  ImGui::SetNextWindowSize(want);
  ImGui::SetNextWindowSizeConstraints({want.x, 0}, {want.x, size.y - font * 4});
  ImGui::Begin("Welcome to attnviz", &state.show_start_page,
               ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_AlwaysAutoResize);
  // Wrapped at the content's right edge, which a scroll bar moves in when
  // the lessons outgrow the window (at 1024x768 a fixed wrap cut
  // "questions right" to "questions righ" under it).
  ImGui::PushTextWrapPos(0.0f);
  // Notices first: the page covers the status panel where they are said
  // (at first start, a settings file that could not be read).
  if (notice_lines_height(state, ImGui::GetContentRegionAvail().x) > 0) {
    draw_notice_lines(state, probe);
    ImGui::Separator();
  }
  ImGui::TextWrapped("See attention compute, one step at a time, with real numbers. Each lesson follows one article "
                     "and asks you to predict before it shows.");
  ImGui::Spacing();
  for (size_t i = 0; i < lessons.lessons.size(); ++i) {
    const LessonEntry& e = lessons.lessons[i];
    ImGui::PushID(static_cast<int>(i));
    ImGui::Separator();
    ImGui::BeginDisabled(!e.problem.empty());
    if (ImGui::Button("Start")) actions::request_lesson(taken, e.path);
    probe_item(probe, "start:" + e.id);
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::BeginGroup();
    ImGui::TextUnformatted(e.title.c_str());
    if (!e.problem.empty()) {
      ImGui::TextColored(to_imvec4(palette(state.view.colour.theme).error), "%s", e.problem.c_str());
    } else {
      ImGui::TextDisabled("%s · %d steps, %d questions", e.article.c_str(), e.steps, e.questions);
      ImGui::TextDisabled("%s", progress_line(e, taken.progress.get(e.id)).c_str());
      probe_item(probe, "start_progress:" + e.id);
      if (!e.summary.empty()) ImGui::TextWrapped("%s", e.summary.c_str());
      probe_item(probe, "start_summary:" + e.id);
    }
    ImGui::EndGroup();
    ImGui::PopID();
  }
  if (probe) {  // where text may reach: the content region's right edge, left of any scroll bar
    const ImVec2 w = ImGui::GetWindowPos();
    (*probe)["start_page_content"] = ImVec4(w.x, w.y, w.x + ImGui::GetWindowContentRegionMax().x, w.y + ImGui::GetWindowHeight());
  }
  if (lessons.lessons.empty()) ImGui::TextDisabled("No lessons were found next to attnviz (assets/lessons).");
  ImGui::Separator();
  if (ImGui::Button("Explore the built-in scene instead")) state.show_start_page = false;
  ImGui::PopTextWrapPos();
  ImGui::End();
}

}  // namespace viz
