// A feature's face in the window: the panel it draws over the canvas and
// its line in the View menu, or the whole canvas it takes while open (the
// Model, Train and compare views). Each view holds its model::Feature (which owns
// the state the panel edits); the app registers them once (register_views.cpp)
// and draws every shown panel in that order. Nothing here computes: the
// feature did that in the session's update.
#pragma once

#include <imgui.h>

#include <memory>
#include <vector>

#include "gl/font_set.hpp"
#include "model/document/app_state.hpp"
#include "model/feature/feature.hpp"
#include "model/trace/trace_model.hpp"
#include "widgets/widget_probe.hpp"

namespace viz {

// What a panel may read while it draws.
struct PanelFrame {
  ImVec2 canvas_pos, canvas_size;  // the panel first opens inside the canvas
  WidgetProbe* probe = nullptr;    // --dump-layout
  bool as_slide = false;           // drawn as a slide's content: no fields
  bool steppers = false;           // presenting (not a handout): steppers stay
  const model::AppState& state;    // the colours and the head shown
  const model::TraceModel& trace;
};

// What a view that takes the canvas's place may use while it draws.
struct CanvasPlace {
  ImVec2 pos, size;
  model::AppState& state;  // a view may ask for a scene, or say something
  const model::TraceModel& trace;
  const FontSet& fonts;
  WidgetProbe* probe = nullptr;  // --dump-layout
};

class FeatureView {
 public:
  virtual ~FeatureView() = default;
  virtual model::Feature& feature() = 0;
  // Its entry in the View menu; null when it has none.
  virtual const char* menu_label() const { return nullptr; }
  // Its entry in the Lessons menu (it opens the panel); null when it has none.
  virtual const char* lessons_menu_label() const { return nullptr; }
  // Called each frame its feature's panel is shown.
  virtual void draw(const PanelFrame& frame) { (void)frame; }
  // Called each frame, shown or not, before the panels: what stays over the
  // canvas while the panel is closed (the class session's corner).
  virtual void draw_over_canvas(const PanelFrame& frame) { (void)frame; }
  // True while the view takes the canvas's place; it is then drawn there
  // instead of the pipeline (draw_in_canvas).
  virtual bool takes_canvas() const { return false; }
  virtual void draw_in_canvas(const CanvasPlace& place) { (void)place; }
};

// A view of one feature type F, kept by reference (the session owns it).
template <class F>
class FeatureViewOf : public FeatureView {
 public:
  explicit FeatureViewOf(F& feature) : feature_(feature) {}
  model::Feature& feature() override { return feature_; }

 protected:
  F& feature_;
};

// The registered views, in the order their panels draw and the menu lists them.
class FeatureViews {
 public:
  void add(std::unique_ptr<FeatureView> view) { views_.push_back(std::move(view)); }
  void draw_panels(const PanelFrame& frame);
  void draw_menu_items();
  void draw_lessons_menu_items();
  // The first registered view that takes the canvas now, or null (the pipeline).
  FeatureView* canvas_taker() const;
  const std::vector<std::unique_ptr<FeatureView>>& all() const { return views_; }

 private:
  std::vector<std::unique_ptr<FeatureView>> views_;
};

}  // namespace viz
