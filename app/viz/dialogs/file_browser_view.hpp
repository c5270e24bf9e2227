// The file dialogs' shared parts: the in-app browser (places, the folder's
// entries, the file types, hidden files) and the row that hands the choice
// to the desktop's own chooser where there is one (files::Dialog says which
// dialog; viz::files decides where it starts and what it remembers).
#pragma once

#include <string>

#include "model_names.hpp"
#include "model/document/app_state.hpp"
#include "widgets/widget_probe.hpp"
#include "model/files/file_dialogs.hpp"

namespace viz {

// WidgetProbe and probe_item: editor_panel.hpp

// Call when the dialog appears: starts the desktop's chooser at once when
// there is one and `desktop_first`, else the in-app browser.
void begin_file_dialog(AppState& s, files::Dialog d, const std::string& path, bool desktop_first);

// The desktop chooser's part of the dialog, each frame.
enum class DesktopStep {
  Browse,     // the in-app browser is in use: draw it
  Waiting,    // the desktop's window is open: draw nothing more than Cancel
  Chosen,     // it chose `path` (set here): act as on OK
  Cancelled,  // the user cancelled it: close the dialog
};
DesktopStep desktop_chooser_part(AppState& s, files::Dialog d, std::string& path, WidgetProbe* probe);

// The in-app browser for `path` (the full path being typed): clicking a
// folder goes into it, clicking a file puts it in `path`. True when a file
// was double-clicked (act as on OK).
bool draw_file_browser(AppState& s, files::Dialog d, std::string& path, WidgetProbe* probe);

// Call when the dialog closes: a desktop chooser still open is closed.
void end_file_dialog(AppState& s);

}  // namespace viz
