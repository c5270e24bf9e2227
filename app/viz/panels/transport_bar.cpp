// Playback controls. The clock is the only thing they change; the frame is
// then re-evaluated from (trace, t), so stepping back is as cheap as forward.
#include "panels/transport_bar.hpp"

#include <cstdio>
#include <string>

#include "model_names.hpp"
#include "model/colour/colourmap.hpp"
#include "widgets/tiled_window.hpp"
#include "widgets/tooltip.hpp"

namespace viz {
void draw_transport(ImVec2 pos, ImVec2 size, const TraceModel& model, AppState& state, WidgetProbe* probe) {
  ImGui::SetNextWindowPos(pos);
  ImGui::SetNextWindowSize(size);
  begin_tiled_window("Playback",
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoScrollWithMouse);
  const Timeline& tl = model.timeline();
  Clock& clock = state.clock;

  // Both to a tenth: a rounded total read as a time past the end ("12.8 / 13 s").
  char total[32];
  std::snprintf(total, sizeof total, "%.1f", tl.total);
  const std::string label = std::string("%.1f / ") + total + " s";
  char shown[64];
  std::snprintf(shown, sizeof shown, "%.1f / %s s", tl.total, total);  // the widest the time reads
  const ImGuiStyle& style = ImGui::GetStyle();
  const float time_w = ImGui::CalcTextSize(shown).x + 2 * style.FramePadding.x + ImGui::GetFontSize();
  // Short labels (the tooltips say the rest) when the full ones would leave
  // the time too little room: presenting, where the row is shared with the
  // lesson column at projector size, and in narrow windows (1024 wide).
  auto button_w = [&](const char* text) { return ImGui::CalcTextSize(text).x + 2 * style.FramePadding.x + style.ItemSpacing.x; };
  const float full_w = button_w("|< Start") + button_w("< Step") + ImGui::GetFontSize() * 4 + style.ItemSpacing.x +
                       button_w("Step >") + button_w("End >|") + time_w;
  const bool compact = state.view.presentation || full_w > ImGui::GetContentRegionAvail().x;
  if (ImGui::Button(compact ? "|<" : "|< Start")) clock.scrub(tl, 0);
  hover_tooltip("Go to the beginning: only the inputs are shown (Home)");
  ImGui::SameLine();
  // "Step", not "Back"/"Next": those are the lesson's, which move between
  // lesson steps; these move the animation one computation step.
  if (ImGui::Button(compact ? "<" : "< Step")) clock.step_back(tl);
  hover_tooltip("The animation's previous computation step (Left arrow)");
  ImGui::SameLine();
  if (ImGui::Button(clock.playing ? "Pause" : "Play", {ImGui::GetFontSize() * 4, 0})) {
    if (clock.playing) clock.pause();
    else clock.play(tl);
  }
  hover_tooltip("Play or pause the step-by-step animation (Space)");
  ImGui::SameLine();
  if (ImGui::Button(compact ? ">" : "Step >")) clock.step_forward(tl);
  hover_tooltip("The animation's next computation step (Right arrow)");
  ImGui::SameLine();
  if (ImGui::Button(compact ? ">|" : "End >|")) clock.to_end(tl);
  hover_tooltip("Show everything computed (End)");
  ImGui::SameLine();
  float t = static_cast<float>(std::min(clock.t, tl.total));
  ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x);
  if (ImGui::SliderFloat("##time", &t, 0.0f, static_cast<float>(tl.total), label.c_str())) clock.scrub(tl, t);
  hover_tooltip("Drag to scrub through the computation");
  probe_item(probe, "transport_time");
  if (probe) (*probe)["transport_time_text"] = ImVec4(0, 0, time_w, 0);
  if (state.view.presentation) {  // one row: the room is the grids'
    ImGui::End();
    return;
  }
  // The second row at its full width, or (a narrow window: 1024 wide with
  // both side panels) without the "speed" and "steps" words, which the
  // tooltips say, and with narrower lists, so nothing runs past the edge.
  const float font = ImGui::GetFontSize();
  const float full_row = font * (6 + 7.5f + 6.5f) + ImGui::CalcTextSize("speedstepsnumbers").x + ImGui::GetFrameHeight() +
                         6 * style.ItemSpacing.x + style.ItemInnerSpacing.x * 3;
  const bool narrow = full_row > ImGui::GetContentRegionAvail().x;
  // Speed from a list: a slider's handle sat over its own "1.00x".
  char speed_text[16];
  std::snprintf(speed_text, sizeof speed_text, "%gx", clock.speed);
  ImGui::SetNextItemWidth(font * (narrow ? 4.5f : 6));
  if (ImGui::BeginCombo(narrow ? "##speed" : "speed", speed_text)) {
    for (const double s : {0.25, 0.5, 1.0, 1.5, 2.0, 4.0}) {
      char item[16];
      std::snprintf(item, sizeof item, "%gx", s);
      if (ImGui::Selectable(item, clock.speed == s)) clock.speed = s;
    }
    ImGui::EndCombo();
  }
  hover_tooltip("Playback speed");
  probe_item(probe, "transport_speed");
  ImGui::SameLine();
  int g = static_cast<int>(state.granularity);
  ImGui::SetNextItemWidth(font * (narrow ? 7 : 7.5f));
  if (ImGui::Combo(narrow ? "##steps" : "steps", &g, "whole stage\0one row\0one cell\0")) state.granularity = static_cast<Granularity>(g);
  hover_tooltip("How much each step computes: a whole matrix, one row, or one cell (showing its products)");
  ImGui::SameLine();
  const int heads = model.has_trace() ? model.trace().dims.n_heads : 1;
  std::string preview = state.view.head < 0 ? "all heads" : "head " + std::to_string(state.view.head);
  ImGui::SetNextItemWidth(font * (narrow ? 5.5f : 6.5f));
  if (ImGui::BeginCombo("##heads", preview.c_str())) {
    if (ImGui::Selectable("all heads", state.view.head < 0)) state.view.head = -1, state.view.fit_pending = true;
    for (int h = 0; h < heads; ++h)
      if (ImGui::Selectable(("head " + std::to_string(h)).c_str(), state.view.head == h))
        state.view.head = h, state.view.fit_pending = true;
    ImGui::EndCombo();
  }
  hover_tooltip("Show every head side by side, or one head (plus the shared concat, W_O and output)");
  probe_item(probe, "transport_heads");

  // Second row: legends and the value toggle.
  ImGui::SameLine(0, narrow ? -1.0f : 16.0f);
  ImGui::Checkbox("numbers", &state.view.show_values);
  hover_tooltip("Print each cell's value, in every grid whose cells are large enough at this zoom");
  probe_item(probe, "transport_numbers");
  ImGui::End();
}

}  // namespace viz
