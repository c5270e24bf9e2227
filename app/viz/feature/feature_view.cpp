// FeatureViews: the shown panels drawn, the menu entries listed, in order.
#include "feature/feature_view.hpp"

namespace viz {

void FeatureViews::draw_panels(const PanelFrame& frame) {
  for (const std::unique_ptr<FeatureView>& v : views_) v->draw_over_canvas(frame);
  for (const std::unique_ptr<FeatureView>& v : views_)
    if (v->feature().is_shown()) v->draw(frame);
}

FeatureView* FeatureViews::canvas_taker() const {
  for (const std::unique_ptr<FeatureView>& v : views_)
    if (v->takes_canvas()) return v.get();
  return nullptr;
}

void FeatureViews::draw_menu_items() {
  for (const std::unique_ptr<FeatureView>& v : views_)
    if (const char* label = v->menu_label())
      if (bool* shown = v->feature().shown()) ImGui::MenuItem(label, nullptr, shown);
}

void FeatureViews::draw_lessons_menu_items() {
  for (const std::unique_ptr<FeatureView>& v : views_)
    if (const char* label = v->lessons_menu_label())
      if (bool* shown = v->feature().shown()) {
        if (ImGui::MenuItem(label)) *shown = true;
      }
}

}  // namespace viz
