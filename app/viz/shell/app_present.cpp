// UI size and presentation mode. Text is rasterised at the size it is shown
// (the atlas is rebuilt between frames when the size changes), and the style
// scales with it, so nothing is a blurry enlargement. Presenting hides the
// side panels, goes full screen and enlarges the UI by half again.
#include <backends/imgui_impl_opengl3.h>

#include <algorithm>
#include <cmath>

#include "shell/app.hpp"

namespace viz {

namespace {
constexpr float kPresentationScale = 1.5f;  // on top of the UI size
}

float App::ui_scale() const {
  const float user = static_cast<float>(std::clamp(state_.view.ui_scale_percent, 75, 250)) / 100.0f;
  return user * (state_.view.presentation ? kPresentationScale : 1.0f) * export_scale_;
}

void App::apply_ui_size(bool first) {
  const float px = std::round(FontSet::kBasePx * ui_scale());
  if (!first && px == fonts_.ui_px()) return;
  fonts_.build(px);
  if (!first) {
    ImGui_ImplOpenGL3_DestroyFontsTexture();
    ImGui_ImplOpenGL3_CreateFontsTexture();
  }
  ImGuiStyle& style = ImGui::GetStyle();
  style = base_style_;
  style.ScaleAllSizes(px / FontSet::kBasePx);
  state_.view.fit_pending = true;
}

void App::apply_presentation() {
  if (presentation_applied_ == state_.view.presentation) return;
  ViewOptions& v = state_.view;
  if (v.presentation) {
    // Remember the panels so leaving gives the teacher's desk back as it was.
    panels_before_ = {v.show_editor, v.show_inspector};
    v.show_editor = v.show_inspector = false;
  } else {
    v.show_editor = panels_before_.first;
    v.show_inspector = panels_before_.second;
    v.spotlight = v.laser = false;
  }
  if (!options_.headless()) platform_.set_fullscreen(v.presentation);
  presentation_applied_ = v.presentation;
  v.fit_pending = true;
}

}  // namespace viz
