// The application: owns the platform, AppState, the derived model and the
// renderers, and runs the frame loop in the house order: input -> AppState ->
// recompute if changed -> evaluate animation at t -> upload textures ->
// draw -> wait for events when nothing animates. Also the headless modes.
#pragma once

#include <chrono>
#include <memory>
#include <vector>

#include <imgui.h>

#include "model_names.hpp"
#include "model/document/app_state.hpp"
#include "feature/feature_view.hpp"
#include "model/framing/window_title.hpp"
#include "model/hf/model_view_feature.hpp"
#include "model/lessons/lesson_state.hpp"
#include "model/train/train_feature.hpp"
#include "model/session/session.hpp"
#include "model/files/autosave_writer.hpp"
#include "panels/editor_panel.hpp"
#include "export/animation_writer.hpp"
#include "export/offscreen_target.hpp"
#include "gl/font_set.hpp"
#include "canvas/grid_renderer.hpp"
#include "canvas/grid_textures.hpp"
#include "hf/atlas_textures.hpp"
#include "shell/options.hpp"
#include "gl/platform.hpp"
#include "model/files/desktop_chooser.hpp"
#include "model/document/settings_state.hpp"
#include "model/export/slides_pdf.hpp"
#include "model/export/slides_plan.hpp"
#include "model/export/export_ui.hpp"

namespace viz {

class App {
 public:
  App(const Options& options, AppState initial, LessonState lessons = {});
  int run();
  // --compare-with FILE (A = the file, B = the document) and --compare-stage;
  // false when the file cannot be read (message() says why).
  bool start_compare(const std::string& file, const std::string& stage);
  const std::string& message() const { return state_.message; }

 private:
  struct Panels {
    ImVec2 lesson_pos, lesson_size, editor_pos, editor_size, inspector_pos, inspector_size;
    ImVec2 canvas_pos, canvas_size, transport_pos, transport_size;
    ImVec2 why_pos, why_size;  // a slide's why strip under the grids (slide_why_panel.hpp); size 0: none
  };

  int run_interactive();
  // How the window waits for its next frame: not at all while something
  // moves or input is settling (`settle` > 0), a few times a second while
  // background work runs, else until an event. The benchmark paces its
  // frames the same way, so it measures what a user gets.
  enum class Pace { Polled, Paced, Idled };
  Pace wait_for_next_frame(int settle);
  void autosave();  // a copy of unsaved work every few seconds (autosave.hpp)
  void take_autosave_outcome();  // a copy that could not be written is said in the window
  static constexpr double kAutosaveSeconds = 2.0;
  int run_screenshot();
  bool compare_failed();  // headless: says why --compare-with cannot be shown
  int run_benchmark();  // app_benchmark.cpp
  int run_soak();  // app_soak.cpp
  // app_export.cpp: --export and File > Export, one code path.
  struct ExportJob {
    ExportRequest request;
    std::vector<double> times;  // the moment of each frame
    size_t next = 0;            // the next frame to draw
    std::unique_ptr<EncodeWorker> worker;
    bool closed = false;        // every frame handed to the worker
  };
  int run_export();
  std::string export_still(const ExportRequest& r);      // PNG, SVG, CSV, NPY, JSON: "" or the error
  std::string start_animation(const ExportRequest& r);   // GIF, MP4: "" or the error
  void export_step(int frames);                          // a few frames of the running job, then checks the worker
  void end_export_job(const std::string& outcome);
  void serve_export_requests();                          // the dialog's Export and Cancel buttons
  // The frame at time t (nullopt: now) drawn offscreen at r.scale, cropped
  // to the canvas or to r.stage's grid; `settle` frames let layout and fonts settle.
  RgbaImage render_export(const ExportRequest& r, std::optional<double> t, int settle);
  void restore_after_export();
  // app_slides.cpp: a lesson as slides, headless (--export-slides) and from
  // File > Export lesson as slides (one slide per UI frame).
  struct SlidesJob {
    std::string dir;
    int width = 0, height = 0;
    std::vector<Slide> slides;
    size_t next = 0;  // the next slide to draw
    // Every slide is also a page of one PDF, written when the last is drawn.
    std::unique_ptr<SlidesPdf> pdf;
    std::string pdf_path;
    // What the export changes and gives back: the student's answers and
    // place, presenting or not, the pinned cell.
    nlohmann::json saved_progress;
    int saved_step = 0;
    bool saved_presentation = false;
    std::optional<CellRef> saved_pinned;
    // The Train view's run and choices: each step that trains gets a run of
    // its own, trained to the step's steps before its slide is drawn.
    std::optional<TrainFeature::SetAside> saved_train;
    bool training = false;  // the next slide's step is entered and its run is training
  };
  std::unique_ptr<SlidesJob> slides_job_;
  std::string last_slide_layout_;  // --dump-layout: the last slide's layout
  int run_slides();
  // `as_presented`: each step as the window presents it (its buttons and
  // steppers included) rather than as a handout: --export-slides --presentation.
  std::string start_slides(const std::string& dir, int width, int height, bool as_presented = false);
  // Draws and writes the next slide (after the last, the PDF): "" or the
  // error. `wait`: a step that trains is trained here; otherwise the call
  // returns at once while it trains, and the slide is drawn by a later call.
  std::string slides_step(bool wait);
  void end_slides(const std::string& outcome);  // outcome: "" or why it stopped
  void serve_slides_requests();
  RgbaImage render_slide(int width, int height);
  std::string layout_dump_now(int width, int height);

  void frame(double dt);
  void apply_theme_if_changed();
  void remember_settings();  // saves what changed (interactive runs only)
  // app_present.cpp
  float ui_scale() const;
  void apply_ui_size(bool first = false);
  void apply_presentation();
  // Presenting full screen, the menu bar gives its room to the canvas (F5
  // and Escape leave); headless captures look the same.
  bool presenting_chrome() const { return state_.view.presentation; }
  Panels panels() const;
  void update_derived(const Panels& p, double dt);
  void draw_views(const Panels& p, WidgetProbe* probe);

  Options options_;
  // The model side: the document's state and everything derived from it,
  // updated once per frame (update_derived). The references name the
  // parts the panels read and edit most.
  Session session_;
  AppState& state_;
  LessonState& lessons_;  // the lessons feature's state
  ModelViewFeature& model_view_;  // the Model view: what the user chose and the model's session
  TrainUi& train_ui_;             // what the user chose in the Train view
  TraceModel& model_;
  TrainFeature& train_;  // the Train view: its run (run(), which the slides export swaps) and its grids
  FeatureViews views_;  // each feature's panel and menu entry (register_views.cpp)
  ExportUi export_ui_;  // File > Export's dialogs and a running export's progress: the window's, not the document's
  // GL owners after the platform so they are destroyed while the context lives.
  Platform platform_;
  FontSet fonts_;
  ImGuiStyle base_style_;
  bool remembers_;  // reads and writes the user's settings; off in test and headless runs
  SettingsStore settings_;          // what was remembered last
  SettingsTracker settings_tracker_;  // what the user changed in this run
  Theme theme_applied_ = Theme::Light;
  bool theme_set_ = false;
  bool presentation_applied_ = false;
  std::pair<bool, bool> panels_before_{true, true};  // editor, inspector before presenting
  std::unique_ptr<GridRenderer> renderer_;
  std::unique_ptr<GridTextures> textures_;
  AtlasTextures model_textures_;  // the Model view's overview
  std::unique_ptr<AutosaveWriter> autosave_;  // null when the run remembers nothing
  std::uint64_t autosaved_revision_ = 0;
  bool autosave_written_ = false;
  std::chrono::steady_clock::time_point last_autosave_{};

  // The Train view's start from the command line (app_train.cpp).
  void apply_train_options();  // --train and its companions, once
  nlohmann::json train_dump();  // the Train view in --dump-state
  // The features' state for --dump-state ("flash", "kv_cache", ...) and the Model view's.
  nlohmann::json panels_dump() const {
    nlohmann::json out = nlohmann::json::object();
    session_.features().dump(out);
    out["window_where"] = model::window_where(state_, model_view_.ui, train_ui_);  // what the menu bar's right end names
    out["export"] = {{"dialog", export_ui_.dialog}, {"running", export_ui_.running}, {"cancel", export_ui_.cancel},
                     {"progress", export_ui_.progress}};
    return out;
  }
  bool train_options_applied_ = false;
  // The Model view's start from the command line (app_model.cpp).
  void apply_model_options();  // --model and its companions, once
  void wait_for_model();       // headless: until the model's background work has landed
  bool model_failed();         // headless: --model names no model that opens (says why, one line)
  double time_model_pass();    // app_benchmark.cpp: --benchmark --model runs the text again
  bool model_options_applied_ = false;
  // The desktop's file chooser (zenity or kdialog) for the file dialogs.
  DesktopChooser chooser_;
  ChooserTool chooser_tool_ = ChooserTool::None;
  bool drop_chooser_result_ = false;  // a chooser closed on the dialog's behalf: its answer is not wanted
  void serve_desktop_chooser();
  bool opening() const { return session_.opening(); }
  WidgetProbe probe_;
  // Export state: an offscreen frame is drawn at export_w_ x export_h_ with
  // this scale, background and (when >= 0) only one stage laid out.
  std::unique_ptr<ExportJob> export_job_;
  std::unique_ptr<OffscreenTarget> offscreen_;
  std::optional<Rgba> export_background_;
  float export_scale_ = 1;
  int export_stage_ = -1;
  int export_w_ = 0, export_h_ = 0;
  // A picture of a chosen size (ExportRequest::width/height) is the canvas
  // alone, laid out for that size: no menu, panel or transport bar in it.
  bool export_canvas_only_ = false;
  bool export_grids_only_ = false;  // ... and a still: the grids fill it, no caption
  Panels last_panels_;
  std::string last_export_layout_;  // --dump-layout with --export: the exported picture's layout
  std::string last_export_outcome_;  // "", "cancelled" or the error of the last animation
  std::string dumped_key_;  // what the last --dump-state reported
};

}  // namespace viz
