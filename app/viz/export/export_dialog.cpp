// The export dialog and the export progress modal (export_dialog.hpp).
#include "export/export_dialog.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <string>

#include <imgui.h>
#include <imgui_stdlib.h>

#include "dialogs/file_browser_view.hpp"
#include "model_names.hpp"
#include "model/export/export_plan.hpp"
#include "model/export/slides_plan.hpp"

namespace viz {
namespace {

std::string stage_name(const attn::Stage& s) {
  return s.title + " (" + attn::to_string(s.id) + (s.head >= 0 ? ", head " + std::to_string(s.head) : "") + ")";
}

// The picture's size: the window's canvas (when `window` is offered: width
// and height 0), one of the presets, or a custom size typed in.
void size_choice(int& width, int& height, bool& custom, bool window, WidgetProbe* probe) {
  const float font = ImGui::GetFontSize();
  std::string current = custom ? "Custom size" : window && width == 0 ? "As the window shows it" : "";
  for (const PictureSize& size : picture_sizes())
    if (!custom && current.empty() && size.width == width && size.height == height) current = size.name;
  if (current.empty()) current = std::to_string(width) + "×" + std::to_string(height);
  ImGui::TextUnformatted("Size:");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(font * 16);
  if (ImGui::BeginCombo("##picture-size", current.c_str())) {
    if (window && ImGui::Selectable("As the window shows it", !custom && width == 0)) {
      width = height = 0;
      custom = false;
    }
    for (const PictureSize& size : picture_sizes())
      if (ImGui::Selectable(size.name, !custom && size.width == width && size.height == height)) {
        width = size.width;
        height = size.height;
        custom = false;
      }
    if (ImGui::Selectable("Custom size", custom)) {
      custom = true;
      if (width == 0) width = 1600, height = 900;
    }
    ImGui::EndCombo();
  }
  probe_item(probe, "picture_size");
  if (!custom) return;
  ImGui::SetNextItemWidth(font * 7);
  ImGui::InputInt("wide", &width, 0);
  probe_item(probe, "picture_width");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(font * 7);
  ImGui::InputInt("high (pixels)", &height, 0);
  probe_item(probe, "picture_height");
  width = std::clamp(width, 0, kMaxPictureSide * 10);
  height = std::clamp(height, 0, kMaxPictureSide * 10);
}

// A dialog's last row: the action, disabled while `problem` says why, and
// Cancel (or Escape). Returns the action pressed, Cancel, or neither.
enum class DialogButton { None, Ok, Cancel };
DialogButton ok_cancel_row(const char* ok_label, bool enabled, const char* ok_probe, WidgetProbe* probe) {
  const float font = ImGui::GetFontSize();
  ImGui::BeginDisabled(!enabled);
  const bool ok = ImGui::Button(ok_label, {font * 6, 0});
  probe_item(probe, ok_probe);
  ImGui::EndDisabled();
  ImGui::SameLine();
  const bool cancel = ImGui::Button("Cancel", {font * 6, 0}) || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape));
  return ok ? DialogButton::Ok : cancel ? DialogButton::Cancel : DialogButton::None;
}

// The desktop's chooser part of an export dialog. While the desktop's
// window is open the dialog shows only a disabled Export and Cancel; true
// then (the popup is ended here), false when the dialog draws its fields.
bool waiting_for_desktop(AppState& state, files::Dialog d, std::string& path, bool& open, const char* ok_probe, WidgetProbe* probe) {
  if (desktop_chooser_part(state, d, path, probe) != DesktopStep::Waiting) return false;
  if (ok_cancel_row("Export", false, ok_probe, probe) == DialogButton::Cancel) {
    end_file_dialog(state);
    open = false;
    ImGui::CloseCurrentPopup();
  }
  ImGui::EndPopup();
  return true;
}

// A request's problem as the dialog says it: without the command line's
// option name ("--export-size: 10x10 is too small" reads "10x10 is too small").
std::string user_words(const std::string& problem) {
  if (problem.rfind("--", 0) != 0) return problem;
  const size_t colon = problem.find(": ");
  if (colon == std::string::npos) return problem;
  std::string rest = problem.substr(colon + 2);
  if (!rest.empty()) rest[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(rest[0])));
  return rest;
}

void export_dialog(AppState& state, ExportUi& ui, const attn::Trace* trace, double total, WidgetProbe* probe) {
  const char* id = "Export";
  ExportRequest& d = ui.draft;
  if (ui.dialog && !ImGui::IsPopupOpen(id)) {
    ImGui::OpenPopup(id);
    // The user's Pictures (or the folder last exported to), with the name used last time.
    if (d.path.empty())
      d.path = files::start_path(state.files, files::Dialog::Export,
                                 state.files.last_export_name.empty() ? "attnviz.png" : state.files.last_export_name);
    begin_file_dialog(state, files::Dialog::Export, d.path, false);
  }
  const float font = ImGui::GetFontSize();
  ImGui::SetNextWindowSize({font * 40, 0}, ImGuiCond_Appearing);
  if (!ImGui::BeginPopupModal(id, nullptr)) return;
  if (waiting_for_desktop(state, files::Dialog::Export, d.path, ui.dialog, "export_ok", probe)) return;
  ImGui::TextUnformatted("File (.png .svg .gif .mp4 .csv .npy .json):");
  ImGui::SetNextItemWidth(-1);
  if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
  ImGui::InputText("##export-path", &d.path);
  probe_item(probe, "export_path");
  draw_file_browser(state, files::Dialog::Export, d.path, probe);
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
  // A picture's size: the window's canvas (PNG: at 1, 2 or 4 times its
  // pixels), or a size of its own that the grids are laid out for.
  const bool picture = format == ExportFormat::Png || (format && is_animation(*format));
  if (picture) size_choice(d.width, d.height, ui.custom_size, true, probe);
  else d.width = d.height = 0;
  if (d.width > 0) d.scale = 1;
  if ((format == ExportFormat::Png && d.width == 0) || format == ExportFormat::Svg) {
    ImGui::TextUnformatted(format == ExportFormat::Svg ? "Text and lines at:" : "Scale:");
    for (int s : {1, 2, 4}) {
      ImGui::SameLine();
      if (ImGui::RadioButton((std::to_string(s) + "x").c_str(), d.scale == s)) d.scale = s;
    }
  }
  if (format == ExportFormat::Png || format == ExportFormat::Svg) ImGui::Checkbox("Transparent background", &d.transparent);
  if (format && is_animation(*format)) {
    d.scale = 1;  // the window keeps its own text size between the frames it draws
    d.transparent = false;
    ImGui::SetNextItemWidth(font * 8);
    if (ImGui::InputInt("frames per second", &d.fps, 1, 5)) d.fps = std::clamp(d.fps, 1, 60);
    probe_item(probe, "export_fps");
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
  if (!problem.empty()) ImGui::TextWrapped("%s", user_words(problem).c_str());
  const DialogButton button = ok_cancel_row("Export", problem.empty(), "export_ok", probe);
  if (button != DialogButton::None) {
    if (button == DialogButton::Ok) {
      ui.start = d;
      files::chosen(state.files, files::Dialog::Export, d.path);
    }
    end_file_dialog(state);
    ui.dialog = false;
    ImGui::CloseCurrentPopup();
  }
  ImGui::EndPopup();
}

void slides_dialog(AppState& state, ExportUi& ui, const LessonState& lessons, WidgetProbe* probe) {
  const char* id = "Export lesson as slides";
  ExportUi::SlidesRequest& d = ui.slides_draft;
  if (ui.slides_dialog && !ImGui::IsPopupOpen(id)) {
    ImGui::OpenPopup(id);
    // A folder named after the lesson, in the user's Pictures (or where slides went last time).
    if (d.dir.empty())
      d.dir = files::start_path(state.files, files::Dialog::Slides, (lessons.lesson ? lessons.lesson->lesson().id : std::string("lesson")) + "-slides");
    begin_file_dialog(state, files::Dialog::Slides, d.dir, false);
  }
  const float font = ImGui::GetFontSize();
  ImGui::SetNextWindowSize({font * 40, 0}, ImGuiCond_Appearing);
  if (!ImGui::BeginPopupModal(id, nullptr)) return;
  if (waiting_for_desktop(state, files::Dialog::Slides, d.dir, ui.slides_dialog, "slides_ok", probe)) return;
  ImGui::PushTextWrapPos(0);
  ImGui::TextUnformatted("One PNG a step, as the step is presented (its text, question and grids, no controls), "
                         "one more with each question's answer, and all of them as the pages of one PDF. "
                         "Into the folder (made if it is not there):");
  ImGui::PopTextWrapPos();
  ImGui::SetNextItemWidth(-1);
  if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
  ImGui::InputText("##slides-dir", &d.dir);
  probe_item(probe, "slides_dir");
  draw_file_browser(state, files::Dialog::Slides, d.dir, probe);
  size_choice(d.width, d.height, d.custom_size, false, probe);
  const std::string problem = slide_size_problem(d.width, d.height);
  if (!problem.empty()) {
    ImGui::TextWrapped("%s", problem.c_str());
    probe_item(probe, "slides_size_problem");
  }
  const DialogButton button = ok_cancel_row("Export", problem.empty() && !d.dir.empty() && lessons.lesson, "slides_ok", probe);
  if (button != DialogButton::None) {
    if (button == DialogButton::Ok) {
      ui.start_slides = d;
      files::chosen(state.files, files::Dialog::Slides, d.dir);
    }
    end_file_dialog(state);
    ui.slides_dialog = false;
    ImGui::CloseCurrentPopup();
  }
  ImGui::EndPopup();
}

void progress_dialog(ExportUi& ui, WidgetProbe* probe) {
  const char* id = "Exporting";
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

void draw_export_dialogs(AppState& state, ExportUi& ui, const LessonState& lessons, const attn::Trace* trace, double timeline_total,
                         WidgetProbe* probe) {
  export_dialog(state, ui, trace, timeline_total, probe);
  slides_dialog(state, ui, lessons, probe);
  progress_dialog(ui, probe);
}

}  // namespace viz
