// Recording where named widgets were drawn (widget_probe.hpp).
#include "widgets/widget_probe.hpp"

namespace viz {

void probe_item(WidgetProbe* probe, const std::string& name) {
  if (!probe) return;
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  (*probe)[name] = ImVec4(a.x, a.y, b.x, b.y);
}

}  // namespace viz
