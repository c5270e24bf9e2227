// The scenario editor: shape (tokens, d_model, d_k, d_v, heads, W_O, cross
// attention), token names, options (scaling, temperature, score function,
// positional encoding, softmax axis, mask and where it applies), every input
// value, randomise with a seed, reset, undo and redo. Edits AppState in place;
// the trace is recomputed from it in the same frame.
#pragma once

#include <string>

#include <imgui.h>

#include "model_names.hpp"
#include "model/document/app_state.hpp"
#include "model/trace/trace_model.hpp"
#include "widgets/tooltip.hpp"
#include "widgets/widget_probe.hpp"

namespace viz {

// Screen rectangles of named widgets ("x[0,1]"), recorded for UI tests.
void draw_editor(ImVec2 pos, ImVec2 size, AppState& state, const TraceModel& model, WidgetProbe* probe);

// What the value tables need from the frame.
struct EditorContext {
  WidgetProbe* probe;                      // null unless --dump-layout
  const std::vector<InputCell>& offending;  // values behind an overflow, marked red
  bool reveal;                             // open and scroll to them (once per failed edit)
};

// Value tables (matrix_editor.cpp).
void draw_matrix_editors(AppState& state, const EditorContext& ctx);

// Shared helpers for the editor files.
void note_drag_edit(AppState& state);  // after a value widget: live change + undo commit

}  // namespace viz
