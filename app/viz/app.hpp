// The application: owns the platform, AppState, the derived model and the
// renderers, and runs the frame loop in the house order: input -> AppState ->
// recompute if changed -> evaluate animation at t -> upload textures ->
// draw -> wait for events when nothing animates. Also the headless modes.
#pragma once

#include <memory>
#include <vector>

#include <imgui.h>

#include "viz/app_state.hpp"
#include "editor_panel.hpp"
#include "font_set.hpp"
#include "grid_renderer.hpp"
#include "grid_textures.hpp"
#include "options.hpp"
#include "platform.hpp"
#include "viz/animation.hpp"
#include "viz/explain_cache.hpp"
#include "viz/layout.hpp"
#include "viz/lesson_catalogue.hpp"
#include "viz/settings.hpp"
#include "viz/step_caption.hpp"
#include "viz/trace_model.hpp"

namespace viz {

class App {
 public:
  App(const Options& options, AppState initial);
  int run();

 private:
  struct Panels {
    ImVec2 lesson_pos, lesson_size, editor_pos, editor_size, inspector_pos, inspector_size;
    ImVec2 canvas_pos, canvas_size, transport_pos, transport_size;
  };
  struct LayoutKey {
    std::uint64_t generation = 0;
    int head = -2;
    int width = 0, height = 0;
    bool presentation = false;
    bool operator==(const LayoutKey& o) const {
      return generation == o.generation && head == o.head && width == o.width && height == o.height &&
             presentation == o.presentation;
    }
  };

  int run_interactive();
  int run_screenshot();
  int run_benchmark();
  void apply_start_options();

  void frame(double dt);
  void apply_theme_if_changed();
  void remember_settings();  // saves what changed (interactive runs only)
  Panels panels() const;
  void update_derived(const Panels& p, double dt);
  void draw_views(const Panels& p);

  Options options_;
  AppState state_;
  TraceModel model_;
  // GL owners after the platform so they are destroyed while the context lives.
  Platform platform_;
  FontSet fonts_;
  ImGuiStyle base_style_;
  bool remembers_;  // reads and writes the user's settings; off in test and headless runs
  // What was remembered last. Its ui_scale_percent is kept for the UI size
  // (read it from settings_.settings(); write it back through save()).
  SettingsStore settings_;
  Theme theme_applied_ = Theme::Light;
  bool theme_set_ = false;
  bool presentation_applied_ = false;
  std::unique_ptr<GridRenderer> renderer_;
  std::unique_ptr<GridTextures> textures_;

  // Derived each frame or when inputs change.
  PipelineLayout layout_;
  LayoutKey layout_key_;
  std::vector<ColorScale> scales_;
  std::uint64_t scales_generation_ = 0, scales_revision_ = 0;
  ColourOptions scales_colour_;
  double last_total_ = -1;
  Frame frame_;
  ExplainCache inspect_cache_, active_cache_;
  const attn::Explanation* inspected_ = nullptr;
  std::vector<int> hidden_;  // stages an open lesson question hides
  LessonCatalogue lessons_;  // the lessons shipped in assets/lessons
  const attn::Explanation* active_cell_ = nullptr;
  StepCaption caption_;
  WidgetProbe probe_;
  std::string dumped_key_;  // what the last --dump-state reported
  bool start_applied_ = false;
};

}  // namespace viz
