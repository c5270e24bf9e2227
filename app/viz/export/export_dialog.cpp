// The export dialog and the export progress modal (export_dialog.hpp).
#include "export/export_dialog.hpp"

#include <cstdlib>
#include <filesystem>
#include <string>

#include <imgui.h>
#include <imgui_stdlib.h>

#include "viz/slides_plan.hpp"

namespace viz {
namespace {

std::string stage_name(const attn::Stage& s) {
  return s.title + " (" + s.id + (s.head >= 0 ? ", head " + std::to_string(s.head) : "") + ")";
}

void export_dialog(AppState& state, const attn::Trace* trace, double total, WidgetProbe* probe) {
  const char* id = "Export";
  AppState::ExportUi& ui = state.export_ui;
  ExportRequest& d = ui.draft;
  if (ui.dialog && !ImGui::IsPopupOpen(id)) {
    ImGui::OpenPopup(id);
    if (d.path.empty()) d.path = "attnviz.png";
  }
  const float font = ImGui::GetFontSize();
  ImGui::SetNextWindowSize({font * 34, 0}, ImGuiCond_Appearing);
  if (!ImGui::BeginPopupModal(id, nullptr)) return;
  ImGui::TextUnformatted("File (.png .svg .gif .mp4 .csv .npy .json):");
  ImGui::SetNextItemWidth(-1);
  if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
  ImGui::InputText("##export-path", &d.path);
  probe_item(probe, "export_path");
  const std::optional<ExportFormat> format = export_format_of(d.path);
  if (format) d.format = *format;
  // What: the whole canvas (pipeline), or one stage.
  const std::string current = trace && d.stage >= 0 && d.stage < static_cast<int>(trace->stages.size())
                                  ? stage_name(trace->stages[static_cast<size_t>(d.stage)])
                                  : "Whole canvas";
  if (format && !is_animation(*format) && *format != ExportFormat::Json && trace) {
    ImGui::SetNextItemWidth(-1);
    if (ImGui::BeginCombo("##export-what", current.c_str())) {
      if (!is_stage_data(*format) && ImGui::Selectable("Whole canvas", d.stage < 0)) d.stage = -1;
      for (size_t i = 0; i < trace->stages.size(); ++i)
        if (ImGui::Selectable((stage_name(trace->stages[i]) + "##" + std::to_string(i)).c_str(), d.stage == static_cast<int>(i)))
          d.stage = static_cast<int>(i);
      ImGui::EndCombo();
    }
  }
  if (format == ExportFormat::Png || format == ExportFormat::Svg) {
    ImGui::TextUnformatted("Scale:");
    for (int s : {1, 2, 4}) {
      ImGui::SameLine();
      if (ImGui::RadioButton((std::to_string(s) + "x").c_str(), d.scale == s)) d.scale = s;
    }
    ImGui::Checkbox("Transparent background", &d.transparent);
  }
  if (format && is_animation(*format)) {
    d.scale = 1;  // the window keeps its own text size between the frames it draws
    d.transparent = false;
    if (d.to < 0 || d.to > total) d.to = total;
    ImGui::SetNextItemWidth(font * 8);
    ImGui::InputDouble("from (s)", &d.from, 0.5, 1, "%.1f");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(font * 8);
    ImGui::InputDouble("to (s)", &d.to, 0.5, 1, "%.1f");
    ImGui::TextDisabled("the whole animation is 0 to %.1f s", total);
  }
  std::string problem = !format ? "Name the file with one of the extensions above." : request_problem(d);
  if (problem.empty() && format && is_stage_data(*format) && d.stage < 0) problem = "Choose the stage to export.";
  if (!problem.empty()) ImGui::TextWrapped("%s", problem.c_str());
  ImGui::BeginDisabled(!problem.empty());
  const bool ok = ImGui::Button("Export", {font * 6, 0});
  probe_item(probe, "export_ok");
  ImGui::EndDisabled();
  ImGui::SameLine();
  const bool cancel = ImGui::Button("Cancel", {font * 6, 0}) || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape));
  if (ok || cancel) {
    if (ok) ui.start = d;
    ui.dialog = false;
    ImGui::CloseCurrentPopup();
  }
  ImGui::EndPopup();
}

// A folder in the user's Pictures (else home, else here) named after the lesson.
std::string default_slides_dir(const AppState& state) {
  namespace fs = std::filesystem;
  const char* home = std::getenv("HOME");
  fs::path base = home ? fs::path(home) : fs::current_path();
  std::error_code ec;
  if (fs::is_directory(base / "Pictures", ec)) base /= "Pictures";
  return (base / ((state.lesson ? state.lesson->lesson().id : std::string("lesson")) + "-slides")).string();
}

void slides_dialog(AppState& state, WidgetProbe* probe) {
  const char* id = "Export lesson as slides";
  AppState::ExportUi& ui = state.export_ui;
  AppState::ExportUi::SlidesRequest& d = ui.slides_draft;
  if (ui.slides_dialog && !ImGui::IsPopupOpen(id)) {
    ImGui::OpenPopup(id);
    if (d.dir.empty()) d.dir = default_slides_dir(state);
  }
  const float font = ImGui::GetFontSize();
  ImGui::SetNextWindowSize({font * 34, 0}, ImGuiCond_Appearing);
  if (!ImGui::BeginPopupModal(id, nullptr)) return;
  ImGui::PushTextWrapPos(0);
  ImGui::TextUnformatted("One picture a step, as the step is presented (its text, question and grids, no controls), "
                         "and one more with each question's answer. Into the folder:");
  ImGui::PopTextWrapPos();
  ImGui::SetNextItemWidth(-1);
  if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
  ImGui::InputText("##slides-dir", &d.dir);
  probe_item(probe, "slides_dir");
  ImGui::TextUnformatted("Size:");
  for (const SlideSize& size : slide_sizes())
    if (ImGui::RadioButton(size.name, d.width == size.width && d.height == size.height)) {
      d.width = size.width;
      d.height = size.height;
    }
  ImGui::BeginDisabled(d.dir.empty() || !state.lesson);
  const bool ok = ImGui::Button("Export", {font * 6, 0});
  probe_item(probe, "slides_ok");
  ImGui::EndDisabled();
  ImGui::SameLine();
  const bool cancel = ImGui::Button("Cancel", {font * 6, 0}) || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape));
  if (ok || cancel) {
    if (ok) ui.start_slides = d;
    ui.slides_dialog = false;
    ImGui::CloseCurrentPopup();
  }
  ImGui::EndPopup();
}

void progress_dialog(AppState& state, WidgetProbe* probe) {
  const char* id = "Exporting";
  AppState::ExportUi& ui = state.export_ui;
  if (ui.running && !ImGui::IsPopupOpen(id)) ImGui::OpenPopup(id);
  ImGui::SetNextWindowSize({ImGui::GetFontSize() * 24, 0}, ImGuiCond_Appearing);
  // Placed every frame: the export's own frames have another display size,
  // and ImGui would otherwise nudge the window a pixel each time, so the
  // Cancel button would never stay under the pointer.
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  ImGui::SetNextWindowPos({display.x / 2, display.y / 2}, ImGuiCond_Always, {0.5f, 0.5f});
  if (!ImGui::BeginPopupModal(id, nullptr)) return;
  ImGui::Text("Writing %s", ui.writing.empty() ? ui.draft.path.c_str() : ui.writing.c_str());
  ImGui::ProgressBar(static_cast<float>(ui.progress), {-1, 0});
  // Between two window frames the export draws frames of its own, without
  // this dialog, so ImGui never counts the dialog as hovered (it hovers only
  // windows drawn in the frame before) and the button alone would not take a
  // click. The press is caught over the button's rectangle directly; Escape
  // works too.
  const bool pressed = ImGui::Button(ui.cancel ? "Cancelling..." : "Cancel", {ImGui::GetFontSize() * 8, 0});
  const bool clicked_over = ImGui::IsMouseClicked(0) && ImGui::IsMouseHoveringRect(ImGui::GetItemRectMin(), ImGui::GetItemRectMax(), false);
  if (pressed || clicked_over || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) ui.cancel = true;
  probe_item(probe, "export_cancel");
  if (!ui.running) ImGui::CloseCurrentPopup();
  ImGui::EndPopup();
}

}  // namespace

void draw_export_dialogs(AppState& state, const attn::Trace* trace, double timeline_total, WidgetProbe* probe) {
  export_dialog(state, trace, timeline_total, probe);
  slides_dialog(state, probe);
  progress_dialog(state, probe);
}

}  // namespace viz
