// The compare view window (compare_view.cpp).
#pragma once

#include <imgui.h>

#include <string>
#include <vector>

#include "feature/feature_view.hpp"
#include "panels/editor_panel.hpp"
#include "gl/font_set.hpp"
#include "model_names.hpp"
#include "model/document/app_state.hpp"
#include "model/compare/compare.hpp"
#include "model/compare/compare_feature.hpp"
#include "model/lessons/lesson_state.hpp"

namespace viz {

struct CompareView {
  CompareState& compare;                // the feature's state: the pickers and Close edit it
  LessonState& lessons;                 // a click on A may answer the step's question
  const CompareGrids* grids = nullptr;  // null when a side has no trace
  std::string error;                    // why there is nothing to draw
  std::vector<attn::StageKind> stages;  // the picker's choices
  int heads = 1;
  const FontSet& fonts;
  const attn::Trace* doc = nullptr;     // the document's trace: a click on A may answer the lesson's question
};

void draw_compare(ImVec2 pos, ImVec2 size, const CompareView& view, AppState& state, WidgetProbe* probe);

// The compare view as the canvas's stand-in while it is open; a side it has
// no trace of shows the document's. `lessons`: a click on A may answer the
// step's question.
class CompareFeatureView : public FeatureViewOf<CompareFeature> {
 public:
  CompareFeatureView(CompareFeature& feature, LessonState& lessons) : FeatureViewOf(feature), lessons_(lessons) {}
  bool takes_canvas() const override { return feature_.open(); }
  void draw_in_canvas(const CanvasPlace& place) override;

 private:
  LessonState& lessons_;
};

}  // namespace viz
