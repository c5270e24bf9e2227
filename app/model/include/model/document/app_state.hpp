// AppState: everything the user controls, in one place (the document being
// edited, playback, view, selection, dialogs). Panels edit it in place; the
// derived TraceModel is recomputed from it only when `revision` changes.
// Plain data with no GL or ImGui, so the document actions are unit-tested.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <utility>
#include <optional>
#include <string>
#include <vector>

#include "attn/io/scenario_file.hpp"
#include "model/files/autosave.hpp"
#include "model/animation/clock.hpp"
#include "model/colour/colour_options.hpp"
#include "model/document/shape_memory.hpp"
#include "model/animation/timeline.hpp"
#include "model/files/file_dialog_state.hpp"
#include "model/files/disk_stamp.hpp"
#include "model/document/undo_history.hpp"
#include "model/feature/panel_request.hpp"
#include "model/layout/view_transform.hpp"

namespace model {

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

// What is being typed into one field. Typed text is applied only when the
// user presses Enter or leaves the field, so "12" never passes through 1
// token and 1e308 never through 1e3. At most one field is typed into at a time.
struct FieldDraft {
  std::uint32_t widget = 0;    // the field's widget id; 0: nothing typed
  std::uint64_t document = 0;  // the document it was typed into
  std::string text;            // the text as typed (shape fields, labels)
  double value = 0;            // the number as typed (value cells)
};

struct ViewOptions {
  int head = -1;               // -1: all heads side by side
  bool show_values = true;     // print numbers in grids whose cells have room
  bool presentation = false;   // projector mode: full screen, one stage and its inputs, large text
  int ui_scale_percent = 100;  // UI text size, 75..250; starts at the monitor's content scale
  bool spotlight = false;      // dim all but the current cell, its row, column and sources
  bool laser = false;          // a laser-pointer dot instead of the mouse cursor
  // A double-clicked grid title: only that stage and its inputs are laid out
  // (Escape goes back to the whole pipeline).
  std::optional<attn::StageRef> zoom_stage;
  bool fit_pending = true;     // fit the canvas on the next frame
  // The view refits by itself when the layout or the room for it changes
  // shape, unless the user has panned or zoomed since the last fit.
  bool user_moved = false;
  Rect fitted_area, fitted_target;  // screen area and world rectangle of the last fit
  Rect area;                   // where grids were drawn in the last frame (screen)
  // Grids whose axis labels the last frame pinned to the view's edges (axis_pins.hpp).
  struct PinnedAxes {
    int stage = -1;
    bool rows = false, cols = false;
  };
  std::vector<PinnedAxes> pinned_axes;
  // View > Go to cell (Ctrl+G) and --go-to: the cell to bring to the middle
  // of the view, large enough to print its number. The canvas applies it
  // once the cell's grid is laid out (axis_pins.hpp: centred_on_cell), and
  // again while the layout or the area still settle (a big scene's layout
  // changes as its computation ends): done when a frame finds both as it
  // left them.
  struct GoTo {
    CellRef cell;
    bool applied = false;
    Rect world, area;  // the cell in world units and the grid area, when applied
  };
  std::optional<GoTo> go_to;
  bool go_to_dialog = false;
  std::optional<CellRef> go_to_draft;  // the dialog's fields; none before it first opens
  double fit_zoom = 1;         // a fit zooms this much further in (--zoom)
  // Pixels kept around a fitted picture; an export at S times the pixels
  // keeps S times as many, so it is an exact enlargement of the window's.
  double fit_margin = 12;
  double fit_max_zoom = 2;  // an export at scale S fits up to S times closer, so 4x is 4x
  // A slide whose grid cannot reach 28 px cells whole: fit on this part of
  // it instead (slide_crop(), set by the session), however far that zooms.
  std::optional<Rect> slide_crop;
  std::string focus_stage;     // fit on this stage (and its inputs) instead
  int focus_head = -1;
  bool show_editor = true;
  bool show_inspector = true;
  // Scroll the inspector to its "Why this score" section once it is drawn
  // (a lesson step that inspects a score is about why, not the arithmetic).
  bool inspector_to_why = false;
  // Presenting a lesson, its panel's text scale: fitted each frame so the
  // step, its question and every choice show without scrolling (text_fit.hpp).
  float lesson_text_scale = 1;
  // Presenting a lesson, the share of the window its column takes: wider
  // (up to kWidestLessonColumn) when the step's text would otherwise go
  // under 20 px to fit; back to the narrowest on the next step.
  static constexpr float kLessonColumn = 0.36f, kWidestLessonColumn = 0.48f;
  float lesson_column = kLessonColumn;
  // Drawing a slide (File > Export lesson as slides): the lesson and its
  // grids with no control on them: no transport bar, buttons or fields.
  bool slide = false;
  // Panels to show or hide (a lesson step's, the command line's); the
  // session hands the request to the features, which own the panels, and clears it.
  std::optional<PanelRequest> panels;
  ViewTransform transform;
  ColourOptions colour;        // theme, colourmaps, contrast (remembered in the settings)
};

// How much larger the canvas text is drawn: presenting, a few grids fill the
// screen, so their text (and the largest numbers a cell prints) may grow by
// half again for the back of the room. The layout scales its text bands by
// the same factor.
inline float text_scale(const ViewOptions& view) { return view.presentation ? 1.5f : 1.0f; }

// A line for the status panel that needs no answer. A notice raised by an
// edit (a value the editor limited) belongs to the state that edit made and
// goes away when that edit is undone; one about a file (keys it skipped)
// goes when another document replaces it. Any other (settings that could
// not be read, a failed autosave) stays until the user dismisses it.
struct Notice {
  std::string text;
  std::uint64_t position = 0;  // UndoHistory position it belongs to; 0: none
  std::uint64_t document = 0;  // AppState::document it is about; 0: none
};

struct AppState;

// What to do once unsaved edits have been saved or discarded.
struct PendingAction {
  enum class Kind { None, Open, OpenBuiltin, Quit, ShowScene, OpenRead };
  PendingAction() = default;
  PendingAction(Kind k, std::string file) : kind(k), path(std::move(file)) {}
  Kind kind = Kind::None;
  std::string path;  // Open, OpenRead: the file
  // ShowScene: a scene that is not a file (a trained layer), its label and
  // the head lane to show (-1: all). OpenRead: the file `path`, already read.
  std::shared_ptr<const attn::io::ScenarioFile> scene;
  std::string label;
  int head = -1;
  DiskStamp stamp;  // OpenRead: the bytes that were read
  // What the feature that asked for the action does once it has run (the
  // Model view compares the layer shown with the same layer with heads
  // switched off); empty: nothing. It runs only if the action does.
  std::function<void(AppState&)> then;
};

struct AppState {
  // The document.
  attn::io::ScenarioFile doc;
  std::string path;              // empty: the built-in lesson
  // The open file on disk (disk_stamp.hpp): `stamp` is what the document
  // was read from or last saved as. Someone else may change the file since
  // (another window, an editor): `outside` says so, and the status panel
  // offers Reload until the user answers (`answered`); Save then asks
  // before it writes over their change (`save_conflict`).
  struct DiskFile {
    DiskStamp stamp;
    DiskChange outside = DiskChange::Same;
    DiskStamp outside_stamp;  // what is on disk now, when outside != Same
    bool answered = false;
    bool save_conflict = false;  // Overwrite / Save as / Reload and compare / Cancel
  } disk;
  std::string builtin_text;      // the built-in lesson's file text
  std::string assets_dir;        // the scenes and lessons attnviz ships (model::find_assets_dir)
  std::uint64_t document = 0;    // bumped whenever another document is opened
  attn::Scenario original;       // what Reset goes back to
  attn::Scenario saved;          // the content of the file on disk (edited = differs)
  std::uint64_t saved_version = 0;  // bumped whenever `saved` changes
  std::uint64_t revision = 1;    // bumped by every change of doc.scenario
  UndoHistory history;
  bool edit_in_progress = false; // a drag is changing values; commit when it ends
  FieldDraft draft;
  std::uint64_t revealed_revision = 0;  // the failed revision the editor last opened on
  edit::ShapeMemory shape_memory;

  // Playback.
  Clock clock;
  Granularity granularity = Granularity::Stage;

  // View and selection.
  ViewOptions view;
  std::optional<CellRef> hovered;
  std::optional<CellRef> pinned;
  bool paint_mask = false;       // left-drag on score/weight grids toggles mask cells
  CanvasGesture gesture;

  // Bumped when the user opens another document (a file, the built-in
  // lesson), not when a scene is shown in its place (a lesson step, a
  // trained layer): a lesson open until then ends (lessons_feature.cpp).
  std::uint64_t files_opened = 0;
  std::string doc_label;         // names a document that is not a file (a lesson step)
  bool show_start_page = false;
  // A model folder to open in the Model view (File > Open of a folder or its
  // config.json); the session hands it to the Model view (ModelViewFeature),
  // which takes the Train view's place, and clears it.
  std::string model_request;

  // Editing helpers.
  std::uint64_t seed = 1;
  std::vector<std::string> recent;

  // Dialogs and messages.
  std::string message;           // last file error, shown until dismissed
  // Things the user should notice but that need no answer (typos the file
  // loader skipped, a value the editor limited): in the status panel until dismissed.
  std::vector<Notice> notices;
  bool open_dialog = false, save_dialog = false, open_lesson_dialog = false;
  std::string dialog_path;       // the path being typed in the open/save dialog
  // The file dialogs' shared state (file_dialog_state.hpp).
  FileDialogs files;
  bool confirm_discard = false;  // asking Save / Discard / Cancel before `pending`
  PendingAction pending;         // runs after the answer (or after Save as)
  // Work a crashed run left behind, offered back at start (and its file).
  std::optional<AutosaveRecord> restore_offer;
  std::string restore_file;
  // While autosave copies cannot be written (a full disk), the notice that
  // says so; said once, and taken back when a copy is written again.
  std::string autosave_failing;
  // A reload from disk replaced unsaved edits (they stay in undo too): what
  // they were and the file's name, until the compare view takes them as A.
  struct ReplacedEdits {
    attn::Scenario edits;
    std::string file;
  };
  std::optional<ReplacedEdits> reload_replaced;
  bool show_help = false;
  bool quit = false;
  // A large file to open in the background (model::FileLoader): the app starts
  // the read and clears this; `opening` names the file while it is read, and
  // cancel_open asks to stop waiting for it.
  std::string open_request, opening;
  bool cancel_open = false;
  // The document and revision when the read was asked for: if either has
  // moved by the time the file arrives (an edit, a restored autosave), the
  // file does not replace the document without asking.
  std::uint64_t open_requested_document = 0, open_requested_revision = 0;
  // The user pressed Cancel on a background recompute (the app stops it),
  // or Compute again after that (the app starts it again).
  bool cancel_compute = false;
  bool compute_again = false;

  // True when the document differs from the file on disk (or the built-in
  // lesson): content is compared, so undoing back, or Reset after Randomise,
  // is not "edited". Cached per revision: large scenes hold megabytes.
  bool dirty() const;
  const std::optional<CellRef>& inspected() const { return pinned ? pinned : hovered; }

 private:
  mutable std::uint64_t dirty_revision_ = 0, dirty_document_ = 0, dirty_saved_ = 0;
  mutable bool dirty_ = false;
};

}  // namespace model
