// Labels that fit the panel (fitted_label.hpp).
#include "widgets/fitted_label.hpp"

#include <algorithm>
#include <string>

#include <imgui.h>

#include "widgets/tooltip.hpp"

namespace viz {
namespace {

// The label's text, wrapped at the panel's edge, recorded under "label:".
void label_text(const char* label, WidgetProbe* probe) {
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextUnformatted(label);
  ImGui::PopTextWrapPos();
  probe_item(probe, std::string("label:") + label);
}

}  // namespace

FittedLabel label_before(const char* label, float want, float least, WidgetProbe* probe) {
  FittedLabel f;
  f.label = label;
  const float room = ImGui::GetContentRegionAvail().x;
  const float beside = ImGui::CalcTextSize(label).x + ImGui::GetStyle().ItemInnerSpacing.x;
  if (room >= least + beside) {
    f.width = std::min(want, room - beside);
    return f;
  }
  f.above = true;
  label_text(label, probe);
  f.width = std::max(1.0f, std::min(want, room));
  return f;
}

void label_after(const FittedLabel& f, WidgetProbe* probe) {
  if (f.above) return;
  ImGui::SameLine(0, ImGui::GetStyle().ItemInnerSpacing.x);
  label_text(f.label, probe);
}

bool wrapped_checkbox(const char* label, bool* value, const char* help, WidgetProbe* probe) {
  ImGui::PushID(label);
  bool changed = ImGui::Checkbox("##box", value);
  ImGui::PopID();
  hover_tooltip(help);
  label_after(FittedLabel{label, false, 0}, probe);
  hover_tooltip(help);
  if (ImGui::IsItemClicked()) {
    *value = !*value;
    changed = true;
  }
  return changed;
}

void same_line_if_room(float width, float gap) {
  const float spacing = gap >= 0 ? gap : ImGui::GetStyle().ItemSpacing.x;
  const float end = ImGui::GetItemRectMax().x + spacing + width;
  const float edge = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  if (end <= edge) ImGui::SameLine(0, spacing);
}

}  // namespace viz
