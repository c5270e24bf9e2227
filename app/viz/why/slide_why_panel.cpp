// Draws the slide's why column (slide_why_panel.hpp) with the inspector's own
// section, so the desk and the slide say the same.
#include "why/slide_why_panel.hpp"

#include "gl/theme_style.hpp"
#include "why/score_why_view.hpp"
#include "widgets/tiled_window.hpp"

namespace viz {

void draw_slide_why(ImVec2 pos, ImVec2 size, const attn::ScoreSplit* split, const model::AppState& state,
                    WidgetProbe* probe) {
  ImGui::SetNextWindowPos(pos);
  ImGui::SetNextWindowSize(size);
  begin_tiled_window("Why this score##slide", ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
                                                  ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings |
                                                  ImGuiWindowFlags_NoTitleBar);
  if (probe) {
    (*probe)["panel.slide_why"] = ImVec4(pos.x, pos.y, pos.x + size.x, pos.y + size.y);
    const ImVec2 at = ImGui::GetCursorScreenPos();  // one line of its text: the size the room reads
    (*probe)["panel.slide_why:em"] = ImVec4(at.x, at.y, at.x + 1, at.y + ImGui::GetTextLineHeight());
  }
  if (split) draw_score_why(*split, palette(state.view.colour.theme), probe, true);
  ImGui::End();
}

}  // namespace viz
