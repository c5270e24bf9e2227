// The model side of a running attnviz: the document's state and everything
// derived from it, brought up to date once per frame by update(). It owns
// AppState, the trace, the background readers and checkers, the caches the
// views read (layout, colour scales, the animation frame, explanations,
// caption) and the features (lessons, the Model, Train and compare views,
// the panels), each with its own state (the Train view its training run).
//
// The window (app/viz's App) keeps only what needs a window: the platform,
// renderer, textures, fonts, panels and export. Its frame is: panels edit
// state() -> session.update(dt, canvas) -> textures -> draw what the session
// holds. Because update() needs no window, its order is tested without one
// (tests/app/compute/test_session.cpp).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "attn/explain/explain.hpp"
#include "model/animation/animation.hpp"
#include "model/animation/step_caption.hpp"
#include "model/colour/colour_scale.hpp"
#include "model/session/texel_step.hpp"
#include "model/document/app_state.hpp"
#include "model/explore/explain_cache.hpp"
#include "model/feature/feature_set.hpp"
#include "model/files/disk_watcher.hpp"
#include "model/files/file_loader.hpp"
#include "model/hf/model_session.hpp"
#include "model/layout/layout.hpp"
#include "model/lessons/lesson_catalogue.hpp"
#include "model/lessons/lesson_loader.hpp"
#include "model/lessons/lesson_state.hpp"
#include "model/trace/trace_model.hpp"

namespace model {

// What a frame needs to know of the window to lay out the grids.
struct CanvasMetrics {
  double width = 0, height = 0;  // the canvas, in pixels
  double line_height = 0;        // a line of text with its spacing
  int only_stage = -1;           // exporting one grid: it alone is laid out, filling the canvas
  bool picture = false;          // an exported picture: no hint addressed to someone at the window
};

// Where the animation starts once the first full trace is there (--stage, --time).
struct StartView {
  StartView() = default;
  StartView(std::string stage_, std::optional<double> time_) : stage(std::move(stage_)), time(time_) {}
  std::string stage;           // the moment this stage is computed; "" for the end
  std::optional<double> time;  // an exact time, over `stage`
  // --model --layer: the start view is for the layer's scene the Model view
  // opens, so it waits for that scene, then focuses `stage` and pins `pin`
  // there (the document shown first is not the one they name).
  bool after_model_scene = false;
  bool set_focus = false;  // focus `stage` on `focus_head` (view.focus_stage) once applied
  int focus_head = -1;
  std::optional<CellRef> pin;
};

struct SessionOptions {
  bool watch_disk = true;      // headless runs draw the file as it was read
  StartView start;
  std::function<void()> wake;  // called from any thread when background work lands
};

class Session {
 public:
  // `lessons`: the lessons' state the run starts with (main opened --lesson into it).
  Session(AppState initial, SessionOptions options, LessonState lessons = {});
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  AppState& state() { return state_; }
  const AppState& state() const { return state_; }
  TraceModel& trace_model() { return trace_; }
  const TraceModel& trace_model() const { return trace_; }

  // One frame of the model, in the house order: what can replace the
  // document (a file read, a lesson checked, a trained layer opened) first,
  // so no frame shows a new view over the old trace; then the trace
  // (recomputed when the revision moved), compare and explore; then the
  // clock, the frame at its time, the layout, the explanations and the
  // caption. Nothing here draws.
  void update(double dt, const CanvasMetrics& canvas);

  // Derived by update(); the grids ones are valid while the trace model has a trace.
  const PipelineLayout& layout() const { return layout_; }
  // What a lesson step's slide leaves out to keep its grids readable
  // ("not shown: Q, K"); "" when it shows everything (slide_focus.hpp).
  const std::string& slide_note() const { return slide_note_; }
  const std::vector<ColourScale>& scales() const { return scales_; }
  std::uint64_t scales_revision() const { return scales_revision_; }  // moves when the scales do
  // Texels made after a background compute for the trace and colours on
  // screen, or null; until release_texels() (the window has uploaded them).
  const PreparedTexels* prepared_texels() const;
  void release_texels();
  double last_texels_ms() const { return texel_step_.last_ms(); }
  const Frame& frame() const { return frame_; }
  const std::vector<int>& hidden() const { return hidden_; }  // stages an open lesson question hides
  const attn::Explanation* inspected() const { return inspected_; }
  // The RoPE dial of the inspected cell's row (a rotated query or key), or null.
  const RopeDial* inspected_dial() const { return inspected_ ? inspect_cache_.dial() : nullptr; }
  // Why the inspected score or weight has its value, or null (another stage).
  const attn::ScoreSplit* inspected_split() const { return inspected_ ? inspect_cache_.split() : nullptr; }
  // With RoPE, how each pair's part of that score changes with the distance.
  const RopeCurves* inspected_curves() const { return inspected_ ? inspect_cache_.curves() : nullptr; }
  // For a layer the Model view opened, unedited, with a score pinned: that
  // score split by the sources of the model's residual stream once made,
  // else null; and while it is made (or why it is not), a line to show.
  const attn::SourceSplit* inspected_sources() const;
  std::string inspected_sources_status() const;
  const attn::Explanation* active_cell() const { return active_cell_; }
  const StepCaption& caption() const { return caption_; }
  const LessonCatalogue& lessons() const { return lessons_; }
  // The features (register_features.cpp): each owns its state, and its
  // view in the window edits it there.
  FeatureSet& features() { return features_; }
  const FeatureSet& features() const { return features_; }
  // A file is still on its way to becoming the document (asked for, being
  // read, or read and not yet taken).
  bool opening() const { return !state_.open_request.empty() || loader_.busy() || loader_.has_result(); }
  // Background work is under way (a recompute, training, a file read, a
  // lesson check): the window redraws its progress a few times a second.
  bool working() const { return trace_.computing() || loader_.busy() || lesson_loader_.busy() ||
                                 features_.working(); }
  // Why the start view could not be honoured ("no stage ..."), once; "" otherwise.
  std::string take_start_problem() { return std::exchange(start_problem_, std::string()); }

 private:
  struct LayoutKey {
    std::uint64_t generation = 0;  // TraceModel::layout_generation
    int head = -2;
    int width = 0, height = 0;
    bool presentation = false;
    std::vector<int> only;  // stages shown (presentation, zoom); empty: all
    bool operator==(const LayoutKey& o) const {
      return generation == o.generation && head == o.head && width == o.width && height == o.height &&
             presentation == o.presentation && only == o.only;
    }
  };

  void update_opening();
  void watch_disk();
  void update_lesson_opening();
  LessonState& lesson_state();  // the lessons feature's
  void update_model();  // session_model.cpp
  std::optional<ModelScoreCell> pinned_model_score() const;  // the pinned score of such a layer
  void apply_start_view();
  void derive_view(double dt, const CanvasMetrics& canvas, bool at_end);

  AppState state_;
  SessionOptions options_;
  TexelStep texel_step_;  // before trace_, which waits for it
  TraceModel trace_;
  FileLoader loader_;
  DiskWatcher disk_watcher_;
  LessonLoader lesson_loader_;
  LessonCatalogue lessons_;

  bool start_applied_ = false;
  std::string start_problem_;
  double last_total_ = -1;
  PipelineLayout layout_;
  LayoutKey layout_key_;
  std::string slide_note_;
  std::vector<ColourScale> scales_;
  const PreparedTexels* texels_ = nullptr;  // texel_step_'s, for the trace shown
  std::uint64_t scales_generation_ = 0, scales_revision_ = 0;
  ColourOptions scales_colour_;
  Frame frame_;
  ExplainCache inspect_cache_, active_cache_;
  const attn::Explanation* inspected_ = nullptr;
  const attn::Explanation* active_cell_ = nullptr;
  std::vector<int> hidden_;
  StepCaption caption_;
  FeatureSet features_;
};

}  // namespace model
