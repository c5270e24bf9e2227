// The Train view. Left: the run's settings, Train / Pause / Reset, the
// status line, the curves, the snapshot history and the model file. Right:
// the held-out example (with the model's guesses) and one attention grid per
// layer and head at the snapshot shown, each with how much it looks at the
// previous token and at the induction target. Clicking a grid opens that
// layer and head in the pipeline view, where every number is explained.
#include "train/train_view.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <imgui_stdlib.h>

#include "canvas/cell_grid.hpp"
#include "widgets/long_text.hpp"
#include "gl/theme_style.hpp"
#include "model_names.hpp"
#include "model/layout/cell_text_plan.hpp"
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
  ImGui::SameLine();
  // Room for six digits beside the -/+ buttons ("150" showed for 1500).
  ImGui::SetNextItemWidth(ImGui::CalcTextSize("000000").x + 2 * ImGui::GetFrameHeight() + 4 * ImGui::GetStyle().FramePadding.x);
  ImGui::InputInt("Steps", &ui.max_steps, 100, 500);
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
void example_line(const TrainSession& session, const TrainGrids& g, TrainUi& ui, const ThemePalette& pal) {
  ImGui::TextUnformatted("Example");
  ImGui::SameLine();
  if (ImGui::ArrowButton("##prev_example", ImGuiDir_Left)) ui.example = std::max(0, ui.example - 1);
  ImGui::SameLine();
  if (ImGui::ArrowButton("##next_example", ImGuiDir_Right))
    ui.example = std::min(std::max(0, session.held_out().size() - 1), ui.example + 1);
  ImGui::SameLine();
  ImGui::Text("%d of %d held-out sequences", ui.example + 1, session.held_out().size());
  std::string input, guesses;
  for (size_t t = 0; t < g.tokens.size(); ++t) {
    if (t) input += ' ';
    input += g.tokens[t];
  }
  ImGui::TextUnformatted(("Input:  " + input).c_str());
  ImGui::TextUnformatted("Guess:");
  for (size_t t = 0; t < g.predicted.size(); ++t) {
    if (!g.scored[t]) continue;
    ImGui::SameLine();
    const Rgba c = g.correct[t] ? pal.right : pal.error;
    ImGui::TextColored(ImVec4(c.r / 255.0f, c.g / 255.0f, c.b / 255.0f, 1), "%s", g.predicted[t].c_str());
  }
}

void head_grids(const TrainViewData& d, AppState& state, const ThemePalette& pal, WidgetProbe* probe) {
  const TrainGrids& g = d.grids;
  if (g.weights.empty()) return;
  // While a lesson asks which head it is, the scores and the frame around
  // the best head would give the answer away.
  const bool hide_answer = lesson_head_question_open(d.lessons);
  const int layers = static_cast<int>(g.weights.size());
  const int heads = static_cast<int>(g.weights[0].size());
  const int n = static_cast<int>(g.tokens.size());
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const float label_w = ImGui::CalcTextSize("WW").x;
  // Square cells as large as the room allows: heads side by side, layers stacked.
  // Under each grid its scores take a line; titles and scores need this much width.
  const float text_w = ImGui::CalcTextSize("prev 0.00  ind 0.00").x;
  const float per_w = (avail.x - label_w) / static_cast<float>(heads) - line;
  const float per_h = (avail.y - 2 * line) / static_cast<float>(layers) - 4 * line;
  const float cell = std::max(3.0f, std::floor(std::min(per_w, per_h) / static_cast<float>(std::max(1, n))));
  // Columns are as wide as the grid or its text, but never wider than their
  // share of the room (then titles shorten), so every head stays on screen.
  const float share = (avail.x - label_w) / static_cast<float>(heads);
  const float column_w = std::max(cell * static_cast<float>(n) + line, std::min(text_w + line, share));
  const bool short_titles = ImGui::CalcTextSize(train_grid_title(0, 0).c_str()).x + line > column_w;
  const float row_h = cell * static_cast<float>(n) + 4 * line;
  attn::BoolMat blocked = attn::BoolMat::Constant(n, n, false);
  for (int r = 0; r < n; ++r)
    for (int c = r + 1; c < n; ++c) blocked(r, c) = true;  // causal: a token never sees later ones
  ColourScale scale;
  scale.kind = attn::ValueKind::Probability;
  scale.map = state.view.colour.probability_map;
  scale.range = {0, 1};
  const ImVec2 top = ImGui::GetCursorScreenPos();
  std::optional<std::pair<int, int>> clicked;
  for (int l = 0; l < layers; ++l)
    for (int h = 0; h < heads; ++h) {
      const attn::train::HeadScore* score = nullptr;
      for (const attn::train::HeadScore& s : g.heads) if (s.layer == l && s.head == h) score = &s;
      const std::string title = train_grid_title(l, h, short_titles);
      // Two lines where one would run into the next column's scores.
      std::string scores = head_score_text(score);
      if (ImGui::CalcTextSize(scores.c_str()).x > column_w - 0.5f * line) scores = head_score_text(score, "\n");
      const std::string name = "train_grid_" + std::to_string(l) + "_" + std::to_string(h);  // --dump-layout key
      const ImVec2 origin{top.x + label_w + static_cast<float>(h) * column_w, top.y + static_cast<float>(l) * row_h};
      const GridSpot spot{name.c_str(), false, title, &g.weights[static_cast<size_t>(l)][static_cast<size_t>(h)],
                          &blocked, nullptr, &scale};
      const auto hovered = draw_grid(spot, origin, cell, d.fonts, pal, probe,
                                     state.view.presentation ? static_cast<float>(kProjectorMinPx) : 9.0f);
      const bool best = !hide_answer && score && g.best.layer == l && g.best.head == h && g.best.induction >= 0.3;
      const ImVec2 a{origin.x - 3, origin.y + line - 3};
      const ImVec2 b{origin.x + cell * static_cast<float>(n) + 2, origin.y + line + cell * static_cast<float>(n) + 2};
      if (best) ImGui::GetWindowDrawList()->AddRect(a, b, to_imgui(pal.step), 0, 0, 3.0f);
      // While a lesson asks which head it is, the scores would give the answer away.
      if (!hide_answer) {
        ImGui::GetWindowDrawList()->AddText({origin.x, b.y + 3}, to_imgui(best ? pal.step : pal.muted), scores.c_str());
        const ImVec2 size = ImGui::CalcTextSize(scores.c_str());
        if (probe) (*probe)["train_scores_" + std::to_string(l) + "_" + std::to_string(h)] = {origin.x, b.y + 3, origin.x + size.x, b.y + 3 + size.y};
      }
      const bool picked = d.ui.picked_head && *d.ui.picked_head == std::make_pair(l, h);
      if (picked) ImGui::GetWindowDrawList()->AddRect(a, b, to_imgui(pal.lesson), 0, 0, 2.0f);
      if (hovered) {
        const int r = hovered->first, c = hovered->second;
        ImGui::BeginTooltip();
        ImGui::Text("%s: query %s (position %d) gives key %s (position %d) weight %s", train_grid_title(l, h).c_str(),
                    g.tokens[static_cast<size_t>(r)].c_str(), r, g.tokens[static_cast<size_t>(c)].c_str(), c,
                    train_number(c <= r ? g.weights[static_cast<size_t>(l)][static_cast<size_t>(h)](r, c) : 0.0, "%.3f").c_str());
        ImGui::TextUnformatted(hide_answer    ? "Click to answer with this head."
                               : d.lessons.lesson ? "Outside a lesson, a click opens this layer and head in the pipeline view."
                                              : "Click to open this layer and head in the pipeline view.");
        ImGui::EndTooltip();
        if (ImGui::IsMouseClicked(0) && !ImGui::IsAnyItemActive()) clicked = std::make_pair(l, h);
      }
    }
  // Token labels of the first grid's rows (the same for every grid).
  const float label_px = std::min(ImGui::GetFontSize(), cell * 0.95f);
  ImFont* label_font = d.fonts.for_size(label_px);
  for (int l = 0; l < layers && label_px >= 8; ++l)
    for (int r = 0; r < n; ++r)
      ImGui::GetWindowDrawList()->AddText(label_font, label_px,
                                          {top.x, top.y + static_cast<float>(l) * row_h + line + static_cast<float>(r) * cell +
                                                      (cell - label_px) / 2},
                                          to_imgui(pal.label), g.tokens[static_cast<size_t>(r)].c_str());
  ImGui::Dummy({avail.x, static_cast<float>(layers) * row_h});
  if (clicked) {
    d.ui.picked_head = clicked;
    // In a lesson the click answers which head it is; outside one it opens the head.
    if (!d.lessons.lesson) d.ui.open_in_pipeline = TrainUi::OpenRequest{clicked->first, clicked->second};
  }
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
  TrainUi& ui = d.ui;
  begin_view_window("##train", pos, size);
  const float left_w = std::clamp(size.x * 0.36f, ImGui::GetFontSize() * 24, ImGui::GetFontSize() * 34);
  // A lesson's slide shows the run, not the controls that make one.
  const bool slide = state.view.slide;
  ImGui::BeginChild("##train_controls", {left_w, 0}, false);
  if (slide) {
    ImGui::PushFont(d.fonts.bold());
    ImGui::TextUnformatted("Train a tiny attention model");
    ImGui::PopFont();
  } else if (view_title(d.fonts, "Train a tiny attention model", left_w)) {
    ui.open = false;
  }
  if (probe && !slide) (*probe)["train_close"] = ImVec4(ImGui::GetItemRectMin().x, ImGui::GetItemRectMin().y,
                                                        ImGui::GetItemRectMax().x, ImGui::GetItemRectMax().y);
  ImGui::TextWrapped("%s", attn::train::task_rule(ui.settings.task.kind).c_str());
  ImGui::Separator();
  if (!slide) {
    settings_controls(ui, d.session.running());
    run_buttons(d.session, ui, probe);
  }
  status_line(d.session, d.grids, lesson_head_question_open(d.lessons));
  if (!ui.message.empty()) ImGui::TextWrapped("%s", ui.message.c_str());
  if (!d.session.problem().empty()) {
    const Rgba e = pal.error;
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(e.r / 255.0f, e.g / 255.0f, e.b / 255.0f, 1));
    ImGui::TextWrapped("%s", d.session.problem().c_str());
    ImGui::PopStyleColor();
  }
  ImGui::Spacing();
  draw_train_curves(d.session, d.grids, ui, ImGui::GetContentRegionAvail().x, pal, probe);
  if (!slide) {
    history_slider(d.session, d.grids, ui, probe);
    ImGui::Spacing();
    ImGui::TextUnformatted("Model file");
    model_file_controls(ui, d.session.running());
  }
  ImGui::EndChild();
  ImGui::SameLine();
  ImGui::BeginChild("##train_heads", {0, 0}, false);
  if (d.grids.snapshot >= 0) {
    example_line(d.session, d.grids, ui, pal);
    ImGui::TextWrapped("Each grid is one head's attention weights at step %d: rows are queries, columns the keys they "
                       "look at. \"prev\" is its average weight on the previous token, \"ind\" on the token just "
                       "after the earlier copy of the current one. Click a grid to open it in the pipeline view.",
                       d.grids.step);
    head_grids(d, state, pal, probe);
    if (d.grids.why && !lesson_head_question_open(d.lessons)) draw_train_why(*d.grids.why, d.fonts, pal, probe);
  }
  ImGui::EndChild();
  ImGui::End();
}

}  // namespace viz
