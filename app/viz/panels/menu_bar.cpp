// The main menu. Opening or quitting with unsaved edits goes through
// actions::request, which asks first (dialogs.cpp draws the question).
#include "panels/menu_bar.hpp"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include <imgui.h>

#include "panels/colour_menu.hpp"
#include "widgets/text_item.hpp"
#include "model_names.hpp"
#include "model/document/app_actions.hpp"
#include "model/framing/window_title.hpp"
#include "model/compare/compare_actions.hpp"
#include "model/lessons/lesson_actions.hpp"
#include "model/lessons/lesson_opening.hpp"

namespace viz {
namespace {

namespace fs = std::filesystem;

void open_request(AppState& state, const std::string& path) { actions::request(state, {PendingAction::Kind::Open, path}); }

}  // namespace

std::vector<std::string> bundled_scenarios(const std::string& assets_dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator(fs::path(assets_dir) / "scenarios", ec))
    if (e.path().extension() == ".json") out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

void draw_menu_bar(AppState& state, ExportUi& export_ui, CompareState& compare, LessonState& taken, ModelUi& model_ui, TrainUi& train_ui, int n_heads, const LessonCatalogue& lessons, FeatureViews& views,
                   WidgetProbe* probe) {
  if (!ImGui::BeginMainMenuBar()) return;
  const bool file_open = ImGui::BeginMenu("File");
  probe_item(probe, "menu:File");
  if (file_open) {
    if (ImGui::MenuItem("Open...", "Ctrl+O")) actions::ask_open(state);
    probe_item(probe, "menu:File/Open");
    if (ImGui::BeginMenu("Open recent", !state.recent.empty())) {
      for (const std::string& p : state.recent)
        if (text_selectable(p, "recent" + p)) open_request(state, p);
      ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("Examples")) {
      for (const std::string& p : bundled_scenarios(state.assets_dir))
        if (text_selectable(fs::path(p).stem().string(), "example" + p)) open_request(state, p);
      ImGui::EndMenu();
    }
    if (ImGui::MenuItem("Open model...")) {
      model_ui.open = true;  // its folder field, or its config.json picked in the open dialog
      train_ui.open = false;
      actions::ask_open(state);
    }
    probe_item(probe, "menu:File/Open model");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("A Hugging Face model folder: pick its config.json (GPT-2, BERT, Llama, Mistral, Qwen2)");
    if (ImGui::MenuItem("Built-in first lesson")) actions::request(state, {PendingAction::Kind::OpenBuiltin, {}});
    ImGui::Separator();
    if (ImGui::MenuItem("Save", "Ctrl+S")) {
      actions::save_or_ask(state);
    }
    if (ImGui::MenuItem("Save as...")) actions::ask_save_as(state);
    ImGui::Separator();
    if (ImGui::MenuItem("Export...", nullptr, false, !export_ui.running)) export_ui.dialog = true;
    probe_item(probe, "menu:File/Export");
    if (ImGui::MenuItem("Export lesson as slides (PNG + PDF)...", nullptr, false, taken.lesson && !export_ui.running))
      export_ui.slides_dialog = true;
    probe_item(probe, "menu:File/Export lesson as slides");
    ImGui::Separator();
    if (ImGui::MenuItem("Quit", "Ctrl+Q")) actions::request_quit(state);
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("Edit")) {
    if (ImGui::MenuItem("Undo", "Ctrl+Z", false, state.history.can_undo())) actions::undo(state);
    if (ImGui::MenuItem("Redo", "Ctrl+Y", false, state.history.can_redo())) actions::redo(state);
    // Every step by name: choose one to go back (or forward) to just after it.
    if (ImGui::BeginMenu("History", state.history.can_undo() || state.history.can_redo())) {
      const std::vector<std::string> done = state.history.undo_names(), undone = state.history.redo_names();
      if (ImGui::MenuItem("(as opened)", nullptr, done.empty()))
        for (size_t k = 0; k < done.size(); ++k) actions::undo(state);
      for (size_t i = 0; i < done.size(); ++i)
        if (text_selectable(std::to_string(i + 1) + ". " + done[i], "done" + std::to_string(i), i + 1 == done.size()))
          for (size_t k = i + 1; k < done.size(); ++k) actions::undo(state);
      if (!undone.empty()) ImGui::Separator();
      for (size_t j = 0; j < undone.size(); ++j) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
        const bool chosen = text_selectable(std::to_string(done.size() + j + 1) + ". " + undone[j] + " (undone)", "undone" + std::to_string(j));
        ImGui::PopStyleColor();
        if (chosen)
          for (size_t k = 0; k <= j; ++k) actions::redo(state);
      }
      ImGui::EndMenu();
    }
    probe_item(probe, "menu:Edit/History");
    ImGui::Separator();
    if (ImGui::MenuItem("Randomise values")) actions::randomise(state);
    if (ImGui::MenuItem("Reset to the opened scenario")) actions::reset(state);
    ImGui::MenuItem("Paint mask with the mouse", "M", &state.paint_mask);
    ImGui::EndMenu();
  }
  const bool view_open = ImGui::BeginMenu("View");
  probe_item(probe, "menu:View");
  if (view_open) {
    if (ImGui::MenuItem("Fit to window", "F")) state.view.fit_pending = true;
    if (ImGui::MenuItem("Go to cell...", "Ctrl+G")) state.view.go_to_dialog = true;
    ImGui::MenuItem("Numbers in cells", nullptr, &state.view.show_values);
    ImGui::MenuItem("Present", "F5", &state.view.presentation);
    ImGui::MenuItem("Spotlight", "S", &state.view.spotlight);
    ImGui::MenuItem("Laser pointer", "L", &state.view.laser);
    ImGui::Separator();
    if (ImGui::MenuItem("Take snapshot")) actions::take_snapshot(state, compare);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Keep this scene as A; after your edits, compare it with now");
    // Named by what is compared: a snapshot, or a real layer before and after switching heads off.
    const std::string compare_item =
        (compare.label_a == "snapshot" ? std::string("Compare with snapshot")
                                             : "Compare " + compare.label_a + " / " + compare.label_b) +
        "###compare";
    if (ImGui::MenuItem(compare_item.c_str(), nullptr, compare.open, compare.a || compare.b)) {
      if (compare.open) actions::close_compare(compare);
      else actions::open_compare(state, compare);
    }
    if (ImGui::MenuItem("Train a model", "T", &train_ui.open) && train_ui.open) model_ui.open = false;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Train a tiny attention model on a toy task and watch its heads learn");
    if (ImGui::MenuItem("Model", nullptr, &model_ui.open) && model_ui.open) train_ui.open = false;
    probe_item(probe, "menu:View/Model");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("A real model's heads on a text: every layer and head at a glance");
    ImGui::Separator();
    if (ImGui::BeginMenu("UI size")) {
      for (int percent : {75, 100, 125, 150, 175, 200, 250})
        if (ImGui::MenuItem((std::to_string(percent) + "%").c_str(), nullptr, state.view.ui_scale_percent == percent))
          state.view.ui_scale_percent = percent;
      ImGui::EndMenu();
    }
    ImGui::MenuItem("Scenario editor", nullptr, &state.view.show_editor);
    ImGui::MenuItem("Inspector", nullptr, &state.view.show_inspector);
    draw_colour_menu(state.view.colour, probe);
    views.draw_menu_items();
    ImGui::Separator();
    if (ImGui::MenuItem("All heads side by side", nullptr, state.view.head < 0)) state.view.head = -1, state.view.fit_pending = true;
    for (int h = 0; h < n_heads; ++h)
      if (ImGui::MenuItem(("Head " + std::to_string(h)).c_str(), nullptr, state.view.head == h))
        state.view.head = h, state.view.fit_pending = true;
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("Lessons")) {
    if (ImGui::MenuItem("Start page")) state.show_start_page = true;
    ImGui::Separator();
    for (const LessonEntry& e : lessons.lessons) {
      const bool current = taken.lesson && taken.lesson->lesson().id == e.id;
      ImGui::BeginDisabled(!e.problem.empty());
      if (text_selectable(e.title, "lesson" + e.path, current)) actions::request_lesson(taken, e.path);
      ImGui::EndDisabled();
      if (!e.problem.empty() && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("%s", e.problem.c_str());
    }
    ImGui::Separator();
    if (ImGui::MenuItem("Open a lesson file...")) {
      state.dialog_path.clear();
      state.open_lesson_dialog = true;
    }
    if (ImGui::MenuItem("Close the lesson", nullptr, false, taken.lesson.has_value())) actions::close_lesson(state, taken);
    ImGui::Separator();
    views.draw_lessons_menu_items();
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("Help")) {
    ImGui::MenuItem("Keys and mouse", nullptr, &state.show_help);
    ImGui::EndMenu();
  }
  const std::string where = model::window_where(state, model_ui, train_ui);
  ImGui::SameLine(ImGui::GetWindowWidth() - ImGui::CalcTextSize(where.c_str()).x - ImGui::GetFontSize() * 5);
  ImGui::TextDisabled("%s%s", where.c_str(), state.dirty() ? "  • edited" : "");
  ImGui::EndMainMenuBar();
}


}  // namespace viz
