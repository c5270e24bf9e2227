// What a lesson step's slide shows when its grids would be too small to read
// from the back of a room. A slide (presenting a lesson, or its exported
// slides) first tries the step's stages with their inputs; when the cells
// would come out under kSlideMinCellPx it drops the grids' caption lines, then
// keeps the step's head's group, that head alone, then the step's own stages
// without their inputs, and says what it left out. It never shrinks a picture it
// can make larger by showing less of what the step is not about.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "attn/compute/trace.hpp"
#include "model/document/app_state.hpp"
#include "model/lessons/lesson_state.hpp"
#include "model/layout/layout.hpp"

namespace model {

// Cells on a slide, in pixels: the back row reads a 28 px cell at 1024×768.
constexpr double kSlideMinCellPx = 28;

struct SlideFocus {
  std::vector<int> only;  // the stages laid out (indices into trace.stages)
  int head = -1;          // the head laid out, -1 for every head in `only`
  std::string left_out;   // "Not shown: Q, K · head 1 of 4 shown"; "" when nothing was left out
  double cell_px = 0;     // the smallest cell the layout fits at, in pixels
  bool captions = true;   // false: legends only, the caption lines gave their room
};

// Whether the window shows a slide: an exported slide, or a presented lesson
// step that does not animate (it shows one moment, its end). A step that
// plays a stretch or shows a mid moment keeps the caption and the transport
// bar, which say and scrub what is being computed; a still step gives their
// room to its grids.
bool shows_slide(const AppState& s, const LessonState& l);

// Whether the slide gives a column to why a score has its value: a slide of
// a step that names a cell to inspect, while that cell is pinned (the
// inspector, a tool for the desk, is not on slides).
bool slide_explains_score(const AppState& s, const LessonState& l);

// The cell size, in pixels, the smallest grid of `layout` has when the
// whole layout is fitted into view_w × view_h.
double fitted_cell_px(const PipelineLayout& layout, double view_w, double view_h);

// `shown`: shown_stages() for the step; `options`: the layout options the
// canvas would use (their `only` and `head` are replaced here).
SlideFocus slide_focus(const AppState& s, const LessonState& l, const attn::Trace& trace, const std::vector<int>& shown, LayoutOptions options,
                       double view_w, double view_h);

// The part of one grid a slide shows when even slide_focus()'s smallest
// picture has cells under kSlideMinCellPx: the rows (and, for a wide grid,
// the columns) around the cell the step is about, as many as fit at that
// size, with the grid's row labels and header kept in view.
struct SlideCrop {
  int stage = -1;               // index into trace.stages
  int r0 = 0, r1 = 0;           // rows r0..r1 - 1 shown
  int c0 = 0, c1 = 0;           // columns c0..c1 - 1 shown
  Rect world;                   // what the view fits, in world units
  std::string note;             // "rows 7–11 of 33 shown"
};

// `layout`: the layout slide_focus()'s choice gave, fitted into view_w ×
// view_h; nullopt when its cells reach kSlideMinCellPx already.
std::optional<SlideCrop> slide_crop(const LessonState& l, const attn::Trace& trace, const PipelineLayout& layout, double view_w,
                                    double view_h);

}  // namespace model
