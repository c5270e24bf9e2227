// The Colours menu. Each map shows a small bar of itself beside its name, so
// a teacher picks by looking, and each choice says what it is for on hover.
#include "panels/colour_menu.hpp"

#include <string>

#include <imgui.h>

#include "canvas/grid_painter.hpp"
#include "widgets/tooltip.hpp"

namespace viz {
namespace {

// Radio items for one slot; a diverging map previews the half a probability uses.
void map_choices(ColourmapId& chosen, bool probabilities, WidgetProbe* probe) {
  for (const Colourmap& m : colourmaps()) {
    // The blank shortcut reserves the room the preview bar is drawn in.
    if (ImGui::MenuItem(m.label, "            ", chosen == m.id)) chosen = m.id;
    probe_item(probe, std::string("colours:") + (probabilities ? "probabilities " : "signed ") + m.name);
    hover_tooltip(m.purpose);
    // In the shortcut column, left of the check mark (ImGui 1.86 makes that column FontSize * 1.2 wide).
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    const float h = ImGui::GetTextLineHeight(), w = ImGui::CalcTextSize("            ").x;
    const float y = (a.y + b.y - h) / 2, right = b.x - ImGui::GetFontSize() * 1.2f - ImGui::GetStyle().ItemSpacing.x;
    const float u0 = probabilities && m.diverging ? 0.5f : 0.0f;
    paint_colour_bar(ImGui::GetWindowDrawList(), {right - w * 0.85f, y + 2}, {right, y + h - 2}, m.id, u0, 1);
  }
}

void contrast_choice(ColourOptions& c, Contrast value, const char* label, const char* tip, WidgetProbe* probe) {
  if (ImGui::MenuItem(label, nullptr, c.contrast == value)) c.contrast = value;
  probe_item(probe, std::string("colours:contrast ") + contrast_name(value));
  hover_tooltip(tip);
}

void theme_choice(ColourOptions& c, Theme value, const char* label, const char* tip, WidgetProbe* probe) {
  if (ImGui::MenuItem(label, nullptr, c.theme == value)) c.theme = value;
  probe_item(probe, std::string("colours:theme ") + theme_name(value));
  hover_tooltip(tip);
}

}  // namespace

void draw_colour_menu(ColourOptions& c, WidgetProbe* probe) {
  const bool open = ImGui::BeginMenu("Colours");
  probe_item(probe, "menu:Colours");
  if (!open) return;
  ImGui::TextDisabled("Signed values (X, Q, K, V, scores, outputs)");
  ImGui::PushID("signed");
  map_choices(c.signed_map, false, probe);
  ImGui::PopID();
  ImGui::Separator();
  ImGui::TextDisabled("Probabilities (softmax weights)");
  ImGui::PushID("probabilities");
  map_choices(c.probability_map, true, probe);
  ImGui::PopID();
  ImGui::Separator();
  ImGui::TextDisabled("Colour range");
  contrast_choice(c, Contrast::Grid, "Per grid",
                  "Each grid of signed values uses its own range, ± its largest |value|; probabilities run from 0 to 1", probe);
  contrast_choice(c, Contrast::Global, "Global",
                  "Every grid of signed values shares one range, so any two can be compared by eye; probabilities 0 to 1", probe);
  contrast_choice(c, Contrast::Row, "Per row",
                  "Each row is stretched to its own range: rows of tiny weights (1/1024 each) show their structure", probe);
  contrast_choice(c, Contrast::Percentile, "Per grid, 99th percentile",
                  "Each grid's range ends at the 99th percentile of its values, so a few large ones do not wash the rest "
                  "out; the cells beyond take the end colour and a corner mark", probe);
  ImGui::MenuItem("Log scale for weights", nullptr, &c.log_weights);
  probe_item(probe, "colours:log weights");
  hover_tooltip("Probabilities coloured by log10, from 1e-6 (lightest) up: tiny and large weights both show");
  ImGui::MenuItem("Same range for every head", nullptr, &c.shared_range, c.contrast != Contrast::Global);
  hover_tooltip("The grids of one stage (every head's scores, every head's weights) share one range");
  ImGui::Separator();
  ImGui::TextDisabled("Theme");
  theme_choice(c, Theme::Light, "Light", "Dark text on a light canvas", probe);
  theme_choice(c, Theme::Dark, "Dark", "Light text on a dark canvas, for dim rooms", probe);
  theme_choice(c, Theme::HighContrast, "High contrast", "Black on white, strong lines: for washed-out projectors", probe);
  ImGui::EndMenu();
}

}  // namespace viz
