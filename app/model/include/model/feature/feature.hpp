// A feature: one room of the app (a panel, a view, a tool) that owns its
// state, its actions and its per-frame update. The session keeps the
// document and the trace; each feature registers once (register_features.cpp)
// and is then brought up to date every frame (before the trace hears of the
// document, and after the trace), asked whether
// it still has work under way, and written into --dump-state. So adding a
// feature touches its own folder and one registration line, not the
// session or AppState.
#pragma once

#include <string_view>

#include <nlohmann/json_fwd.hpp>

namespace model {

struct AppState;
class TraceModel;

// What a feature may read and change in one frame.
struct FeatureFrame {
  AppState& state;          // the document and the view basics
  const TraceModel& trace;  // may have no trace yet (a scene still computing)
  double dt = 0;            // seconds since the last frame, for play
  double canvas_width = 0;  // the canvas, in pixels (0: not measured, a headless session)
};

class Feature {
 public:
  virtual ~Feature() = default;
  // Its name where lessons and the command line name it ("flash_tiles";
  // the command line writes '-' for '_').
  virtual std::string_view name() const = 0;
  // Once per frame, before the trace model hears of the document: what can
  // replace the document (a scene the feature opens) goes here, so the trace
  // computes the new one in this frame.
  virtual void before_trace(FeatureFrame& frame) { (void)frame; }
  // Once per frame, after the trace and before the layout.
  virtual void update(FeatureFrame& frame) = 0;
  // A panel over the canvas: its shown flag (the View menu and the panel's
  // close button edit it in place); null for a feature that is no panel.
  virtual bool* shown() { return nullptr; }
  // Something moves by itself (a tile or a token played each second): the
  // window draws every frame rather than waiting for input.
  virtual bool animating() const { return false; }
  // Background work under way: the window redraws its progress.
  virtual bool working() const { return false; }
  // Its state for --dump-state, under its own keys of `out`.
  virtual void dump(nlohmann::json& out) const { (void)out; }

  bool is_shown() {
    const bool* flag = shown();
    return flag && *flag;
  }
};

// A feature whose face is a panel over the canvas, hidden until asked for.
class PanelFeature : public Feature {
 public:
  bool* shown() override { return &shown_; }

 protected:
  bool shown_ = false;
};

}  // namespace model
