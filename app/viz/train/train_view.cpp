// The Train view. Left: the run's settings, Train / Pause / Reset, the
// status line, the curves, the snapshot history and the model file. Right:
// the held-out example (with the model's guesses), one attention grid per
// layer and head at the snapshot shown (train_head_grids.cpp) and why the
// strongest induction head attends. A view too narrow for two columns
// stacks them in one; a slide leaves the controls out.
#include "train/train_view.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <imgui_stdlib.h>

#include "widgets/fitted_label.hpp"
#include "widgets/long_text.hpp"
#include "gl/theme_style.hpp"
#include "model_names.hpp"
#include "model/lessons/lesson_actions.hpp"
#include "model/settings/theme.hpp"
#include "widgets/tiled_window.hpp"

namespace viz {
namespace {

using attn::train::TaskKind;

constexpr TaskKind kTasks[] = {TaskKind::Copy,      TaskKind::Reverse,   TaskKind::Sort,
                               TaskKind::PreviousToken, TaskKind::Induction, TaskKind::KeyValue};

void settings_controls(TrainUi& ui, bool running) {
  attn::train::TrainConfig& c = ui.settings;
  ImGui::BeginDisabled(running);
  const std::string current = attn::train::task_name(c.task.kind);
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 9);
  if (ImGui::BeginCombo("Task", current.c_str())) {
    for (TaskKind k : kTasks) {
      const std::string name = attn::train::task_name(k);
      if (ImGui::Selectable(name.c_str(), k == c.task.kind)) c.task.kind = k;
    }
    ImGui::EndCombo();
  }
  const float field = ImGui::GetFontSize() * 6;
  ImGui::SetNextItemWidth(field);
  ImGui::InputInt("Symbols", &c.task.vocab);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(field);
  ImGui::InputInt("Length", &c.task.length);
  c.task.vocab = std::clamp(c.task.vocab, 2, 64);
  c.task.length = std::clamp(c.task.length, 1, 64);
  if (c.task.kind == TaskKind::Induction) {
    ImGui::Checkbox("Random start", &c.task.random_offset);
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("A few fillers fall at random before the first copy and between the copies, so the\n"
                        "repeat is a different distance back in every sequence: a head must find the earlier\n"
                        "token by content, not by position.");
  }
  int layers = c.model.n_layers;
  ImGui::TextUnformatted("Layers");
  ImGui::SameLine();
  ImGui::RadioButton("1##layers", &layers, 1);
  ImGui::SameLine();
  ImGui::RadioButton("2##layers", &layers, 2);
  c.model.n_layers = layers;
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 4);
  const char* head_names[] = {"1", "2", "4", "8"};
  const int head_values[] = {1, 2, 4, 8};
  int head_index = 0;
  for (int i = 0; i < 4; ++i) if (head_values[i] == c.model.n_heads) head_index = i;
  if (ImGui::Combo("Heads", &head_index, head_names, 4)) c.model.n_heads = head_values[head_index];
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 4);
  const char* width_names[] = {"16", "32", "64", "128"};
  const int width_values[] = {16, 32, 64, 128};
  int width_index = 2;
  for (int i = 0; i < 4; ++i) if (width_values[i] == c.model.d_model) width_index = i;
  if (ImGui::Combo("d_model", &width_index, width_names, 4)) c.model.d_model = width_values[width_index];
  ImGui::SameLine();
  int positions = c.model.learned_positions ? 0 : 1;
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7);
  const char* position_names[] = {"learned", "sinusoidal"};
  if (ImGui::Combo("Positions", &positions, position_names, 2)) c.model.learned_positions = positions == 0;
  ImGui::Checkbox("MLP", &c.model.mlp);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(field);
  ImGui::InputDouble("Learning rate", &c.learning_rate, 0, 0, "%.4g");
  c.learning_rate = std::clamp(c.learning_rate, 1e-6, 1.0);
  int seed = static_cast<int>(c.seed);
  ImGui::SetNextItemWidth(field);
  if (ImGui::InputInt("Seed", &seed)) c.seed = static_cast<std::uint64_t>(std::max(0, seed));
  ImGui::SameLine();
  ImGui::SetNextItemWidth(field);
  ImGui::InputInt("Batch", &c.batch);
  c.batch = std::clamp(c.batch, 1, 1024);
  ImGui::EndDisabled();
}

void run_buttons(const TrainSession& session, TrainUi& ui, WidgetProbe* probe) {
  const bool running = session.running();
  const bool fresh = !session.has_run() || !same_run(session.config(), ui.settings);
  const char* label = running ? "Pause" : fresh ? "Train" : "Continue";
  if (ImGui::Button(label, {ImGui::GetFontSize() * 6, 0}))
    ui.command = running ? TrainUi::Command::Pause : TrainUi::Command::Start;
  if (probe) (*probe)["train_start"] = ImVec4(ImGui::GetItemRectMin().x, ImGui::GetItemRectMin().y,
                                              ImGui::GetItemRectMax().x, ImGui::GetItemRectMax().y);
  ImGui::SameLine();
  if (ImGui::Button("Reset")) ui.command = TrainUi::Command::Reset;
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("New random weights from the seed: step 0 again.");
  // Room for six digits beside the -/+ buttons ("150" showed for 1500).
  const float steps_w = ImGui::CalcTextSize("000000").x + 2 * ImGui::GetFrameHeight() + 4 * ImGui::GetStyle().FramePadding.x;
  same_line_if_room(steps_w + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize("Steps").x);
  ImGui::SetNextItemWidth(steps_w);
  ImGui::InputInt("Steps", &ui.max_steps, 100, 500);
  probe_item(probe, "train_steps");
  ui.max_steps = std::clamp(ui.max_steps, 10, 100000);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("A run pauses by itself after this many steps.");
}

// `hide_best`: a lesson's open head question asks the student to find it.
void status_line(const TrainSession& session, const TrainGrids& g, bool hide_best) {
  if (session.snapshots().empty()) {
    ImGui::TextWrapped("Press Train: a tiny model starts from random weights and learns the task while you watch.");
    return;
  }
  // The snapshot on screen, not the newest: scrubbed back, the numbers are that step's.
  wrapped_text(train_status_line(session, g.snapshot));
  if (!g.heads.empty() && !hide_best)
    wrapped_text(best_head_line(g));
}

void history_slider(const TrainSession& session, const TrainGrids& g, TrainUi& ui, WidgetProbe* probe) {
  const int n = static_cast<int>(session.snapshots().size());
  if (n == 0) return;
  int index = g.snapshot;
  char label[48];
  std::snprintf(label, sizeof label, "step %d", g.step);
  ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - ImGui::GetFontSize() * 6);
  if (ImGui::SliderInt("##history", &index, 0, n - 1, label)) ui.shown = index;
  if (probe) (*probe)["train_history"] = ImVec4(ImGui::GetItemRectMin().x, ImGui::GetItemRectMin().y,
                                                ImGui::GetItemRectMax().x, ImGui::GetItemRectMax().y);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Scrub the history: the grids show the model as it was at that step.");
  ImGui::SameLine();
  ImGui::BeginDisabled(ui.shown < 0);
  if (ImGui::Button("Newest")) ui.shown = -1;
  ImGui::EndDisabled();
}

void model_file_controls(TrainUi& ui, bool running) {
  ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - ImGui::GetFontSize() * 8);
  ImGui::InputText("##model_path", &ui.model_path);
  ImGui::SameLine();
  ImGui::BeginDisabled(running);
  if (ImGui::Button("Save")) ui.save_request = true;
  ImGui::SameLine();
  if (ImGui::Button("Open")) ui.open_request = true;
  ImGui::EndDisabled();
}

// The example's tokens, and under them the model's guess where it is scored
// (green when right, red when wrong).
// `slide`: without the arrows; `compact` (a slide short of room): the input alone.
void example_line(const TrainSession& session, const TrainGrids& g, TrainUi& ui, const ThemePalette& pal, bool slide,
                  bool compact) {
  if (!compact) {
    ImGui::TextUnformatted("Example");
    if (!slide) {
      ImGui::SameLine();
      if (ImGui::ArrowButton("##prev_example", ImGuiDir_Left)) ui.example = std::max(0, ui.example - 1);
      ImGui::SameLine();
      if (ImGui::ArrowButton("##next_example", ImGuiDir_Right))
        ui.example = std::min(std::max(0, session.held_out().size() - 1), ui.example + 1);
    }
    char which[64];
    std::snprintf(which, sizeof which, "%d of %d held-out sequences", ui.example + 1, session.held_out().size());
    same_line_if_room(ImGui::CalcTextSize(which).x);
    ImGui::TextUnformatted(which);
  }
  std::string input, guesses;
  for (size_t t = 0; t < g.tokens.size(); ++t) {
    if (t) input += ' ';
    input += g.tokens[t];
  }
  ImGui::TextUnformatted(("Input:  " + input).c_str());
  if (compact) return;
  ImGui::TextUnformatted("Guess:");
  for (size_t t = 0; t < g.predicted.size(); ++t) {
    if (!g.scored[t]) continue;
    ImGui::SameLine();
    const Rgba c = g.correct[t] ? pal.right : pal.error;
    ImGui::TextColored(ImVec4(c.r / 255.0f, c.g / 255.0f, c.b / 255.0f, 1), "%s", g.predicted[t].c_str());
  }
}

// The title, with Close where the view is not a slide.
void header(const TrainViewData& d, bool slide, float width, WidgetProbe* probe) {
  if (slide) {
    ImGui::PushFont(d.fonts.bold());
    ImGui::TextUnformatted("Train a tiny attention model");
    ImGui::PopFont();
    return;
  }
  if (view_title(d.fonts, "Train a tiny attention model", width)) d.ui.open = false;
  probe_item(probe, "train_close");
}

// Where the run stands: its status, the view's last message and any problem.
// Not which head is strongest while the lesson asks a question (it could be
// the answer), nor where `compact` (why's title names it).
void run_state(const TrainViewData& d, const ThemePalette& pal, bool compact) {
  status_line(d.session, d.grids, compact || lesson_question_open(d.lessons));
  if (!d.ui.message.empty()) ImGui::TextWrapped("%s", d.ui.message.c_str());
  if (!d.session.problem().empty()) {
    const Rgba e = pal.error;
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(e.r / 255.0f, e.g / 255.0f, e.b / 255.0f, 1));
    ImGui::TextWrapped("%s", d.session.problem().c_str());
    ImGui::PopStyleColor();
  }
}

void history_and_file(const TrainViewData& d, WidgetProbe* probe) {
  history_slider(d.session, d.grids, d.ui, probe);
  ImGui::Spacing();
  ImGui::TextUnformatted("Model file");
  model_file_controls(d.ui, d.session.running());
}

// Why the strongest head attends, under the grids: in the window (which
// scrolls), and on a slide (which cannot) where the lesson step asks for
// it; there it takes the room the curves would. Not while the lesson asks
// a question: which head, and what it reads, may be the answer.
bool why_shown(const TrainViewData& d, bool slide) {
  return d.grids.why && !lesson_question_open(d.lessons) && (!slide || d.ui.slide_why);
}

// Why, with its height kept in ImGui's storage of this window: a slide's
// grids leave it as much room as it took the frame before (the first
// frame guesses, and a slide is drawn over several frames).
void draw_why(const TrainViewData& d, const ThemePalette& pal, WidgetProbe* probe, bool compact) {
  const float top = ImGui::GetCursorPosY();
  draw_train_why(*d.grids.why, d.fonts, pal, probe, compact);
  ImGui::GetStateStorage()->SetFloat(ImGui::GetID("why_height"), ImGui::GetCursorPosY() - top);
}

// The two heads why is about, in the order they compute: the previous-token
// head (where one is found) and the head whose score it splits.
std::vector<std::pair<int, int>> why_heads(const TrainWhy& why) {
  std::vector<std::pair<int, int>> heads;
  if (why.previous_token_layer >= 0) heads.emplace_back(why.previous_token_layer, why.previous_token_head);
  heads.emplace_back(why.split.cell.layer, why.split.cell.head);
  return heads;
}

float why_height() {
  return ImGui::GetStateStorage()->GetFloat(ImGui::GetID("why_height"), 14 * ImGui::GetTextLineHeightWithSpacing());
}

constexpr const char* kGridsExplained =
    "Each grid is one head's attention weights at step %d: rows are queries, columns the keys they look at. \"prev\" "
    "is its average weight on the previous token, \"ind\" on the token just after the earlier copy of the current "
    "one. Click a grid to open it in the pipeline view.";

// Settings and status on the left, the grids on the right: a view wide
// enough for both.
void two_columns(ImVec2 size, const TrainViewData& d, AppState& state, const ThemePalette& pal, WidgetProbe* probe,
                 float left_w, bool slide) {
  const ImGuiWindowFlags flags = slide ? ImGuiWindowFlags_NoScrollbar : 0;  // a slide does not scroll
  ImGui::BeginChild("##train_controls", {left_w, 0}, false, flags);
  header(d, slide, left_w, probe);
  ImGui::TextWrapped("%s", attn::train::task_rule(d.ui.settings.task.kind).c_str());
  ImGui::Separator();
  if (!slide) {
    settings_controls(d.ui, d.session.running());
    run_buttons(d.session, d.ui, probe);
  }
  run_state(d, pal, false);
  ImGui::Spacing();
  draw_train_curves(d.session, d.grids, d.ui, ImGui::GetContentRegionAvail().x, pal, probe);
  if (!slide) history_and_file(d, probe);
  ImGui::EndChild();
  ImGui::SameLine();
  ImGui::BeginChild("##train_heads", {0, 0}, false, flags);
  if (d.grids.snapshot >= 0) {
    const bool why = why_shown(d, slide);
    example_line(d.session, d.grids, d.ui, pal, slide, false);
    if (!slide) ImGui::TextWrapped(kGridsExplained, d.grids.step);
    if (slide && why) draw_head_grids(d, state, pal, probe, ImGui::GetContentRegionAvail().y - why_height(), false, why_heads(*d.grids.why));
    else draw_head_grids(d, state, pal, probe, size.y, true);
    if (why) draw_why(d, pal, probe, slide);
  }
  ImGui::EndChild();
}

// One column, for a narrow view (presenting at 1024x768 beside the lesson):
// the run's buttons, the grids and why in view, the settings folded away,
// the curves and the history below. A slide cannot scroll: it shows either
// a compact why under the grids of the two heads it is about (without
// their scores; the status without the strongest head and the example,
// which why names), or short curves above every head's grid.
void stacked(ImVec2 size, const TrainViewData& d, AppState& state, const ThemePalette& pal, WidgetProbe* probe,
             bool slide) {
  ImGui::BeginChild("##train_column", {0, 0}, false, slide ? ImGuiWindowFlags_NoScrollbar : 0);
  const bool why = why_shown(d, slide);
  const bool compact = slide && why;
  const float width = ImGui::GetContentRegionAvail().x;
  header(d, slide, width, probe);
  if (!slide) ImGui::TextWrapped("%s", attn::train::task_rule(d.ui.settings.task.kind).c_str());  // a slide's lesson says it
  ImGui::Separator();
  if (!slide) {
    run_buttons(d.session, d.ui, probe);
    if (ImGui::CollapsingHeader("Settings")) settings_controls(d.ui, d.session.running());
  }
  run_state(d, pal, compact);
  if (slide && !why) {  // the run's story first: the grids are as wide as the column allows anyway
    ImGui::Spacing();
    draw_train_curves(d.session, d.grids, d.ui, width, pal, probe, 3 * ImGui::GetFontSize());
  }
  if (d.grids.snapshot >= 0) {
    // On a slide the accuracy stands for the guesses; with why, whose title
    // names the two tokens, the grids take the input's line too.
    if (!compact) example_line(d.session, d.grids, d.ui, pal, slide, slide);
    const float grids_h = !slide ? std::max(size.y * 0.6f, 12 * ImGui::GetTextLineHeightWithSpacing())
                          : ImGui::GetContentRegionAvail().y - (why ? why_height() : 0);
    draw_head_grids(d, state, pal, probe, grids_h, !compact, compact ? why_heads(*d.grids.why) : std::vector<std::pair<int, int>>{});
    if (!slide) ImGui::TextWrapped(kGridsExplained, d.grids.step);  // under them: the grids come first in view
    if (why) draw_why(d, pal, probe, compact);
  }
  if (!slide) {
    ImGui::Spacing();
    draw_train_curves(d.session, d.grids, d.ui, width, pal, probe);
    history_and_file(d, probe);
  }
  ImGui::EndChild();
}

}  // namespace

bool view_title(const FontSet& fonts, const char* title, float width) {
  ImGui::PushFont(fonts.bold());
  ImGui::TextUnformatted(title);
  ImGui::PopFont();
  ImGui::SameLine(width - ImGui::CalcTextSize("Close").x - 2 * ImGui::GetStyle().FramePadding.x - ImGui::GetFontSize());
  return ImGui::Button("Close");
}

void draw_train_view(ImVec2 pos, ImVec2 size, const TrainViewData& d, AppState& state, WidgetProbe* probe) {
  const ThemePalette& pal = palette(state.view.colour.theme);
  begin_view_window("##train", pos, size);
  const float em = ImGui::GetFontSize();
  // A lesson's slide shows the run, not the controls that make one: its
  // left column, the curves and the status, gives the grids more room.
  const bool slide = state.view.slide;
  const float left_w = std::clamp(size.x * 0.36f, em * (slide ? 16 : 24), em * 34);
  // Beside the controls, the grids need room for four heads' columns.
  if (size.x >= left_w + em * 22) two_columns(size, d, state, pal, probe, left_w, slide);
  else stacked(size, d, state, pal, probe, slide);
  ImGui::End();
}

}  // namespace viz
