// The Colours menu. Each map shows a small bar of itself beside its name, so
// a teacher picks by looking, and each choice says what it is for on hover.
#include "colour_menu.hpp"

#include <imgui.h>

#include "grid_painter.hpp"

namespace viz {
namespace {

void tooltip(const char* text) {
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", text);
}

// Radio items for one slot; a diverging map previews the half a probability uses.
void map_choices(ColormapId& chosen, bool probabilities) {
  for (const Colormap& m : colormaps()) {
    // The blank shortcut reserves the room the preview bar is drawn in.
    if (ImGui::MenuItem(m.label, "            ", chosen == m.id)) chosen = m.id;
    tooltip(m.purpose);
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    const float h = ImGui::GetTextLineHeight(), w = ImGui::CalcTextSize("            ").x;
    const float y = (a.y + b.y - h) / 2;
    const float u0 = probabilities && m.diverging ? 0.5f : 0.0f;
    paint_colour_bar(ImGui::GetWindowDrawList(), {b.x - w, y + 2}, {b.x - ImGui::GetStyle().ItemSpacing.x, y + h - 2}, m.id, u0, 1);
  }
}

void contrast_choice(ColourOptions& c, Contrast value, const char* label, const char* tip) {
  if (ImGui::MenuItem(label, nullptr, c.contrast == value)) c.contrast = value;
  tooltip(tip);
}

void theme_choice(ColourOptions& c, Theme value, const char* label, const char* tip) {
  if (ImGui::MenuItem(label, nullptr, c.theme == value)) c.theme = value;
  tooltip(tip);
}

}  // namespace

void draw_colour_menu(ColourOptions& c) {
  if (!ImGui::BeginMenu("Colours")) return;
  ImGui::TextDisabled("Signed values (X, Q, K, V, scores, outputs)");
  ImGui::PushID("signed");
  map_choices(c.signed_map, false);
  ImGui::PopID();
  ImGui::Separator();
  ImGui::TextDisabled("Probabilities (softmax weights)");
  ImGui::PushID("probabilities");
  map_choices(c.probability_map, true);
  ImGui::PopID();
  ImGui::Separator();
  ImGui::TextDisabled("Colour range");
  contrast_choice(c, Contrast::Grid, "Per grid",
                  "Each grid of signed values uses its own range, ± its largest |value|; probabilities run from 0 to 1");
  contrast_choice(c, Contrast::Global, "Global",
                  "Every grid of signed values shares one range, so any two can be compared by eye; probabilities 0 to 1");
  contrast_choice(c, Contrast::Row, "Per row",
                  "Each row is stretched to its own range: rows of tiny weights (1/1024 each) show their structure");
  ImGui::MenuItem("Log scale for weights", nullptr, &c.log_weights);
  tooltip("Probabilities coloured by log10, from 1e-6 (lightest) up: tiny and large weights both show");
  ImGui::MenuItem("Same range for every head", nullptr, &c.shared_range, c.contrast != Contrast::Global);
  tooltip("The grids of one stage (every head's scores, every head's weights) share one range");
  ImGui::Separator();
  ImGui::TextDisabled("Theme");
  theme_choice(c, Theme::Light, "Light", "Dark text on a light canvas");
  theme_choice(c, Theme::Dark, "Dark", "Light text on a dark canvas, for dim rooms");
  theme_choice(c, Theme::HighContrast, "High contrast", "Black on white, strong lines: for washed-out projectors");
  ImGui::EndMenu();
}

}  // namespace viz
