// File > Export: a dialog that fills an ExportRequest (the file name picks
// the format), and the progress bar with Cancel while a GIF or MP4 is made.
// Only asks; the App runs the export (app_export.cpp).
#pragma once

#include "widgets/widget_probe.hpp"

#include "attn/compute/trace.hpp"
#include "model_names.hpp"
#include "model/document/app_state.hpp"
#include "model/export/export_ui.hpp"
#include "model/lessons/lesson_state.hpp"

namespace viz {

// Drawn after every other window of the frame (they are modals).
// probe: the dialog's path field and buttons for --dump-layout (UI tests), or null.
void draw_export_dialogs(AppState& state, ExportUi& ui, const LessonState& lessons, const attn::Trace* trace, double timeline_total, WidgetProbe* probe);

}  // namespace viz
