// The compare view window (compare_view.cpp).
#pragma once

#include <imgui.h>

#include <string>
#include <vector>

#include "panels/editor_panel.hpp"
#include "gl/font_set.hpp"
#include "model_names.hpp"
#include "model/document/app_state.hpp"
#include "model/compare/compare.hpp"
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

}  // namespace viz
