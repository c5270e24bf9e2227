// AppState: everything the user controls, in one place (the document being
// edited, playback, view, selection). Panels edit it in place; the derived
// TraceModel is recomputed from it only when `revision` changes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "attn/io/scenario_file.hpp"
#include "viz/clock.hpp"
#include "viz/timeline.hpp"
#include "viz/undo_history.hpp"
#include "viz/view_transform.hpp"

namespace viz {

// One cell of one stage (stage by id and head, so it survives recomputes).
struct CellRef {
  attn::StageRef stage;
  int row = 0, col = 0;
  bool operator==(const CellRef& o) const { return stage == o.stage && row == o.row && col == o.col; }
};

// A mouse gesture on the canvas that spans frames.
struct CanvasGesture {
  enum class Kind { None, EditValue, PaintMask };
  Kind kind = Kind::None;
  CellRef cell;              // EditValue: the input cell being dragged
  double start_value = 0;
  double per_pixel = 0.01;   // value change per pixel of vertical drag
  bool paint_blocked = true; // PaintMask: what the stroke writes
};

struct ViewOptions {
  int head = -1;               // -1: all heads side by side
  bool show_values = true;     // print numbers in grids whose cells have room
  bool presentation = false;   // large fonts for projectors
  bool fit_pending = true;     // fit the canvas on the next frame
  double fit_zoom = 1;         // a fit zooms this much further in (--zoom)
  std::string focus_stage;     // fit on this stage (and its inputs) instead
  int focus_head = -1;
  bool show_editor = true;
  bool show_inspector = true;
  ViewTransform transform;
};

struct AppState {
  // The document.
  attn::io::ScenarioFile doc;
  std::string path;              // empty: the built-in lesson
  attn::Scenario original;       // what Reset goes back to
  std::uint64_t revision = 1;    // bumped by every change of doc.scenario
  std::uint64_t saved_position = 0;  // history.position() when last saved or opened
  UndoHistory history;
  bool edit_in_progress = false; // a drag is changing values; commit when it ends

  // Playback.
  Clock clock;
  Granularity granularity = Granularity::Stage;

  // View and selection.
  ViewOptions view;
  std::optional<CellRef> hovered;
  std::optional<CellRef> pinned;
  bool paint_mask = false;       // left-drag on score/weight grids toggles mask cells
  CanvasGesture gesture;

  // Editing helpers.
  std::uint64_t seed = 1;
  std::vector<std::string> recent;

  // Dialogs and messages.
  std::string message;           // last file error, shown until dismissed
  // Things the user should notice but that need no answer (typos the file
  // loader skipped, a value the editor limited): in the status panel until dismissed.
  std::vector<std::string> notices;
  bool open_dialog = false, save_dialog = false;
  std::string dialog_path;       // the path being typed in the open/save dialog
  bool confirm_discard = false;  // closing or opening with unsaved edits
  std::string pending_open;      // open this once the user agreed to discard
  bool pending_builtin = false;  // ... or the built-in lesson
  bool show_help = false;
  bool quit = false;

  // Compares history positions, not revisions, so undoing back to the saved
  // state is clean again.
  bool dirty() const { return edit_in_progress || history.position() != saved_position; }
  const std::optional<CellRef>& inspected() const { return pinned ? pinned : hovered; }
};

}  // namespace viz
