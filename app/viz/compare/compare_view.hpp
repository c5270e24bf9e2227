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

namespace viz {

struct CompareView {
  const CompareGrids* grids = nullptr;  // null when a side has no trace
  std::string error;                    // why there is nothing to draw
  std::vector<std::string> stages;      // the picker's choices
  int heads = 1;
  const FontSet& fonts;
  const attn::Trace* doc = nullptr;     // the document's trace: a click on A may answer the lesson's question
};

void draw_compare(ImVec2 pos, ImVec2 size, const CompareView& view, AppState& state, WidgetProbe* probe);

}  // namespace viz
