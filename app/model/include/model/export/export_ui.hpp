// File > Export and File > Export lesson as slides: the dialogs' choices,
// the request the app starts, and the progress of a running export (the app
// owns the job itself). Dialog state, beside the document rather than in it:
// the window owns it (viz::App), and the menu, the dialogs and the export
// jobs are handed it.
#pragma once

#include <optional>
#include <string>

#include "model/export/export_plan.hpp"

namespace model {

struct ExportUi {
  bool dialog = false;
  ExportRequest draft;
  bool custom_size = false;  // the dialog shows width and height fields (else the presets)
  std::optional<ExportRequest> start;
  bool running = false, cancel = false;
  double progress = 0;  // 0..1
  // File > Export lesson as slides: its dialog, and the request the app starts.
  bool slides_dialog = false;
  struct SlidesRequest {
    std::string dir;
    int width = 1920, height = 1080;
    bool custom_size = false;
  };
  SlidesRequest slides_draft;
  std::optional<SlidesRequest> start_slides;
  std::string writing;  // what the running export writes, when not draft.path (the slides' folder)
};

}  // namespace model
