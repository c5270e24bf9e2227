// View > Go to cell (Ctrl+G): a grid, a row and a column; Go brings the cell
// to the middle of the view, large enough to print its number, and pins
// the inspector on it. Far inside a 2048-token grid that is the quick way
// to one token's weights.
#pragma once

#include "attn/compute/trace.hpp"
#include "widgets/widget_probe.hpp"
#include "model_names.hpp"
#include "model/document/app_state.hpp"

namespace viz {

// A modal: call after every ordinary window of the frame (see dialogs.hpp).
void draw_go_to_dialog(AppState& state, const attn::Trace* trace, WidgetProbe* probe);

}  // namespace viz
