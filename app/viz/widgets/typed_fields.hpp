// Editor fields that apply what the user typed, not every keystroke: typed
// text is kept as a draft in AppState and applied on Enter or when the field
// loses focus, as one undo step. Dragging a value and the -/+ buttons stay
// live, because watching the weights move while you drag is the point.
#pragma once

#include <functional>
#include <limits>
#include <string>

#include "widgets/widget_probe.hpp"
#include "model_names.hpp"
#include "model/document/app_state.hpp"

namespace viz {

// A shape field (tokens, d_model, heads...) with -/+ buttons. A committed
// value outside [lo, hi] is limited, with a notice that lasts until that
// edit is undone. `apply` makes the change; it runs as one reshape step.
void shape_field(AppState& state, WidgetProbe* probe, const char* label, int current, int lo, int hi, const char* help,
                 const std::function<void(attn::Scenario&, int)>& apply);

// A number cell: drag to change it live (one undo step per drag), or
// double-click / Ctrl+click to type a number, applied on Enter or leaving.
// Returns true when `value` changed this frame. A value outside [lo, hi] is
// limited to it (a typed one with a notice that names both ends, and the
// value by `name`, else by the label in `id`).
bool value_cell(AppState& state, const char* id, double* value, float drag_speed, const char* format,
                double lo = -std::numeric_limits<double>::infinity(), double hi = std::numeric_limits<double>::infinity(),
                const char* name = nullptr);

// A text field (a token's name). Returns true with the new text in *out when
// a different text was committed (Enter or leaving the field).
bool text_field(AppState& state, const char* id, const std::string& current, std::string* out);

}  // namespace viz
