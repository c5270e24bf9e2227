// The pipeline canvas: every laid-out grid, data-flow arrows, animation and
// inspection highlights, the status caption; pan (right/middle drag), zoom
// (wheel), hover/pin (left click), Alt+drag to change an input value, and
// mask painting. Reads const model data; user input edits AppState only.
#pragma once

#include <optional>
#include <vector>

#include <imgui.h>

#include "model_names.hpp"
#include "model/document/app_state.hpp"
#include "gl/font_set.hpp"
#include "widgets/widget_probe.hpp"
#include "canvas/grid_numbers.hpp"
#include "canvas/grid_renderer.hpp"
#include "canvas/grid_textures.hpp"
#include "model/animation/animation.hpp"
#include "model/colour/colourmap.hpp"
#include "model/layout/layout.hpp"
#include "model/lessons/lesson_state.hpp"
#include "model/animation/step_caption.hpp"
#include "model/trace/trace_model.hpp"

namespace viz {

struct CanvasData {
  const TraceModel& model;
  const Frame& frame;
  const PipelineLayout& layout;
  const std::vector<ColourScale>& scales;   // parallel to trace.stages
  const attn::Explanation* inspected;      // hovered or pinned cell, or null
  const attn::Explanation* active_cell;    // the cell being animated, or null
  const StepCaption& caption;
  const FontSet& fonts;
  const GridTextures& textures;
  const AppState& state;               // its notices and the file on disk, for the status panel
  LessonState& lessons;                // the step's highlights and question; a click may answer it
  bool can_undo;                       // error messages offer Ctrl+Z only then
  const std::vector<int>& hidden;      // stages a lesson question hides until answered
  // Export: the canvas background instead of the theme's (white, or black
  // and white in turn for a transparent PNG); nullopt on screen.
  std::optional<Rgba> background = std::nullopt;
  // A file being read in the background (AppState::opening); empty: none.
  std::string opening = {};
  // An exported still of a chosen size: the grids fill the picture, with the
  // colour legend under them; no caption (it would only say "all shown").
  bool grids_only = false;
  WidgetProbe* probe = nullptr;  // --dump-layout: where the status panel's buttons are
  // A lesson step's slide: what it leaves out to keep its grids readable
  // (Session::slide_note), said under them; "" for none.
  std::string slide_note = {};
};

// Draws the canvas into the area [pos, pos + size) and applies the user's
// mouse input to `state`.
void draw_canvas(ImVec2 pos, ImVec2 size, const CanvasData& data, GridRenderer& renderer, AppState& state);


// What decides which grids print their numbers, as the canvas draws them
// (the layout dump asks with the same inputs).
NumberInputs number_inputs(const attn::Trace& trace, const Frame& frame, const FontSet& fonts, const AppState& state);

// The world rectangle to fit: the whole layout, or a focused stage with its inputs.
Rect fit_target(const PipelineLayout& layout, const attn::Trace& trace, const ViewOptions& view);

}  // namespace viz
