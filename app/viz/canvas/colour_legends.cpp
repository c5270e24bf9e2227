// The legends of the two colourmaps and the masked look, drawn under the
// transport bar and in an exported picture's status strip.
#include "canvas/colour_legends.hpp"

#include <string>

#include "canvas/grid_painter.hpp"
#include "model_names.hpp"
#include "model/colour/colourmap.hpp"
#include "widgets/tooltip.hpp"

namespace viz {
namespace {

void masked_legend(const ThemePalette& palette) {
  const float h = ImGui::GetTextLineHeight();
  const ImVec2 a = ImGui::GetCursorScreenPos();
  paint_masked(ImGui::GetWindowDrawList(), a, {a.x + h, a.y + h}, palette);
  ImGui::Dummy({h, h});
  ImGui::SameLine();
  ImGui::TextUnformatted("masked");
  hover_tooltip("Blocked by the mask: −∞ before softmax, so its weight is exactly 0");
}

// A small colour bar with its end labels.
void colourmap_legend(ColourmapId map, float u0, const char* lo, const char* hi, float width) {
  ImGui::TextUnformatted(lo);
  ImGui::SameLine(0, 4);
  const float h = ImGui::GetTextLineHeight();
  const ImVec2 a = ImGui::GetCursorScreenPos();
  paint_colour_bar(ImGui::GetWindowDrawList(), {a.x, a.y + 2}, {a.x + width, a.y + h - 2}, map, u0, 1);
  ImGui::Dummy({width, h});
  ImGui::SameLine(0, 4);
  ImGui::TextUnformatted(hi);
}

}  // namespace

float colour_legends_width() { return ImGui::GetFontSize() * 14.5f + ImGui::CalcTextSize("−+1e-61masked").x; }

void colour_legends(const ColourOptions& colour) {
  const Colourmap& s = colourmap(colour.signed_map);
  const Colourmap& p = colourmap(colour.probability_map);
  colourmap_legend(s.id, 0, "−", "+", ImGui::GetFontSize() * 5);
  const std::string signed_tip = std::string("Signed values: ") + s.label + ", zero in the middle; " +
                                 "each grid's legend gives its range (View ▸ Colours to change)";
  hover_tooltip(signed_tip.c_str());
  ImGui::SameLine(0, 16);
  // A diverging map shows probabilities on its half from white (0) to one hue.
  const bool per_row = colour.contrast == Contrast::Row;
  colourmap_legend(p.id, p.diverging ? 0.5f : 0.0f, per_row ? "min" : colour.log_weights ? "1e-6" : "0", per_row ? "max" : "1",
                  ImGui::GetFontSize() * 4);
  const std::string prob_tip = std::string("Probabilities (softmax weights): ") + p.label +
                               (per_row ? ", each row from its smallest to its largest weight" : ", from 0 to 1") +
                               (colour.log_weights ? " on a log scale (from 1e-6)" : "") + " (View ▸ Colours to change)";
  hover_tooltip(prob_tip.c_str());
  ImGui::SameLine(0, 16);
  masked_legend(palette(colour.theme));
}

}  // namespace viz
