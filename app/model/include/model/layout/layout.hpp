// Pipeline layout: where each stage's grid sits on the canvas, in world units,
// in computation order left to right (X -> W -> Q,K,V -> QKᵀ -> ... -> output),
// one horizontal lane per head. Pure geometry plus exact hit testing, so the
// view, the screenshot tests and the unit tests all agree on every cell's place.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "attn/compute/trace.hpp"

namespace model {

struct Vec2d {
  double x = 0, y = 0;
};

// Half-open rectangle [x0, x1) x [y0, y1).
struct Rect {
  double x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  double width() const { return x1 - x0; }
  double height() const { return y1 - y0; }
  bool contains(Vec2d p) const { return p.x >= x0 && p.x < x1 && p.y >= y0 && p.y < y1; }
  bool overlaps(const Rect& o) const { return x0 < o.x1 && o.x0 < x1 && y0 < o.y1 && o.y0 < y1; }
  bool operator==(const Rect& o) const { return x0 == o.x0 && y0 == o.y0 && x1 == o.x1 && y1 == o.y1; }
};

Rect united(const Rect& a, const Rect& b);

// Sizes in world units; the view multiplies everything by its zoom.
struct LayoutOptions {
  int head = -1;             // -1: every head in its own lane; h: only head h
  // When not empty, only these stages (indices into trace.stages) are laid
  // out: one stage and its inputs, filling the view (presentation, zoom).
  std::vector<int> only;
  double cell = 30;          // side of one (square) cell
  double title_h = 40;       // two text lines above the grid: name + shape, formula
  double col_label_h = 16;   // column labels, when they fit across their cells
  // Token names wider than their column are drawn upright (rotated) instead of
  // cut to "s…": the label band then grows to the longest name, up to this
  // many characters (longer ones end in "…"; hovering shows them in full).
  int rotated_label_chars = 12;
  double char_w = 7.5;       // average label character width, for row labels
  double caption_h = 54;     // colour legend and a two-line caption below the grid
  double legend_h = 22;      // colour legend only (heads after the first)
  // False: every grid gets its legend only, no caption line (a slide, whose
  // text column says what the grids mean, gives that room to the cells).
  bool captions = true;
  // A grid level with the grid just left of it in its lane, with the same
  // row labels (Q beside Q rotated), leaves them to that grid (one band
  // only: a wrapped grid needs its own). A slide's grids grow by that width.
  bool share_row_labels = false;
  double min_box_w = 125;    // room for the caption text (titles are shortened)
  double title_overhang = 24;  // titles may run this far into the gap on their right
  double gap_x = 44;         // between columns
  double gap_y = 26;         // between grids in one column
  double lane_gap = 40;      // between head lanes
  // When > 0, columns that would end right of this width wrap onto a new
  // band below (like lines of text), so a long pipeline fits a window.
  double wrap_width = 0;
  // When > 1 (and wrap_width is 0): wrap into at most this many bands, with
  // the narrowest possible widest band.
  int bands = 1;
  double band_gap = 70;      // between bands
  // Each projection beside its weights (W_Q Q W_K K W_V V) instead of the
  // three stacked: a lane is then one grid tall, so several heads fit larger.
  bool side_by_side = false;
  // Feature axes (d_model, d_k, d_v, d_out) can be far longer than the token
  // axes. An axis of more cells than max(long_axis_cells, n_q, n_k) is drawn
  // that many cells long, its cells narrowed on that axis only, so one long
  // thin matrix does not shrink every grid at fit; token axes never shrink.
  int long_axis_cells = 12;
};

// One stage's grid. Row r, column c of the stage is cell (r, c): rows go down,
// columns go right, exactly as the matrix is written (never transposed).
// Cells are cell_w x cell_h: square unless a long axis was shortened.
struct GridBox {
  int stage = -1;  // index into Trace::stages
  int rows = 0, cols = 0;
  int column = 0;  // computation-order column, 0 = inputs
  int lane = -1;   // head lane, -1 for shared stages
  int band = 0;    // wrapped band (0 = top); columns run left to right in each
  Rect box;        // title, labels, cells and caption together
  Rect header;     // title and formula lines: box's top, a little wider (arrows keep off)
  Rect cells;      // the cells only
  double cell_w = 0, cell_h = 0;
  bool captioned = true;  // room for a caption under the legend
  bool row_labels = true;  // false: the grid level on its left names the rows

  double min_cell() const { return cell_w < cell_h ? cell_w : cell_h; }
  // Cell boundaries; column c spans [col_x(c), col_x(c + 1)). Hit testing
  // and drawing both use these, so they agree to the last bit.
  double col_x(int c) const { return cells.x0 + c * cell_w; }
  double row_y(int r) const { return cells.y0 + r * cell_h; }
  Rect cell_rect(int r, int c) const { return {col_x(c), row_y(r), col_x(c + 1), row_y(r + 1)}; }
  Vec2d cell_center(int r, int c) const { return {cells.x0 + (c + 0.5) * cell_w, cells.y0 + (r + 0.5) * cell_h}; }
};

// A data-flow arrow from grid `from` to grid `to` (indices into
// PipelineLayout::grids): an orthogonal polyline in world units that leaves
// the source to the right, runs through the gaps between grids, and ends
// (arrow head) just left of the target. It crosses no other grid.
struct ArrowRoute {
  int from = -1, to = -1;
  std::vector<Vec2d> points;
};

struct CellHit {
  int grid = -1;   // index into PipelineLayout::grids
  int stage = -1;  // index into Trace::stages
  int row = -1, col = -1;
};

struct PipelineLayout {
  std::vector<GridBox> grids;       // in trace order
  std::vector<ArrowRoute> arrows;   // see arrow_routes.hpp
  Rect bounds;                      // union of every box and arrow
  int bands = 1;

  // The grid of a trace stage, or nullptr when it is not laid out (other head).
  const GridBox* find(int stage) const;
  // The cell under a world point. Boundaries belong to the cell to their
  // right/below, so every point of the cell area maps to exactly one cell.
  std::optional<CellHit> hit(Vec2d world) const;
};

// Parameters (W_Q, W_K, W_V, W_O, positional encodings, the ALiBi bias):
// inputs that feed one computation, drawn just left of it.
bool is_parameter_stage(const attn::Stage& stage);

// The same options with every text band (titles, labels, captions) scaled,
// for presentation mode's larger canvas text.
LayoutOptions scaled_text(LayoutOptions options, double factor);

// The title drawn above a grid: "Q  4×3". Titles and subtitles do not widen
// the layout: the painter shortens them with "…" and the full text shows on hover.
std::string grid_title(const attn::Stage& stage);
// The line under the title: the formula, after "head 1 · " with several heads.
std::string grid_subtitle(const attn::Stage& stage, int n_heads);

// Estimated width of a label (UTF-8 code points times char_w).
double label_width(const std::string& text, double char_w);

// True when labels name tokens ("the", "cat"), false for index labels
// ("0", "1", ...), which thin out instead of rotating.
bool names_tokens(const std::vector<std::string>& labels);

// Whether a grid's column labels are drawn rotated: some name is wider than
// its column (both in the same units, e.g. world units at one zoom).
bool rotate_column_labels(const std::vector<std::string>& labels, double widest_label, double column_width);

// The column-label band every grid gets (one height for all, so the cells of
// neighbouring grids stay level): taller when some grid's names are rotated.
double column_label_band(const attn::Trace& trace, const LayoutOptions& options);

// The grids and the arrows between them.
PipelineLayout layout_pipeline(const attn::Trace& trace, const LayoutOptions& options = {});
// The grids only (no arrows): for comparing many candidate layouts cheaply.
PipelineLayout place_grids(const attn::Trace& trace, const LayoutOptions& options = {});

// How many cells long an axis of n entries is drawn (see long_axis_cells).
double drawn_cells(long long n, const attn::Trace& trace, int long_axis_cells);

// A cell size for this trace: larger than standard for tiny scenes (a 2×2
// matrix should show its numbers at fit), the standard size for small ones,
// smaller for large ones so the biggest grid stays about as large as the text
// around it allows (a 1024x1024 score grid gets ~1-unit cells). Axes drawn
// shortened (long_axis_cells) do not count: they cannot grow the grid.
double auto_cell_size(const attn::Trace& trace, double standard = 30, double largest_grid = 400,
                      int long_axis_cells = LayoutOptions{}.long_axis_cells);

// Tries 1..max_bands bands (and, with several head lanes, projections side by
// side) and returns the layout that can be shown largest in a view of
// view_w x view_h pixels (ties go to fewer bands, then stacked projections),
// with its arrows routed.
PipelineLayout layout_for_view(const attn::Trace& trace, LayoutOptions options, double view_w, double view_h,
                               int max_bands = 4);

// Whether two traces lay out alike: the same stages with the same shapes,
// titles, formulas, inputs and labels (an edit of a value changes none).
bool same_layout_inputs(const attn::Trace& a, const attn::Trace& b);

// Whether options.head and options.only let stage `index` be laid out.
bool shown_in_layout(const attn::Trace& trace, int index, const LayoutOptions& options);

// A stage and the stages it reads (indices into trace.stages): what a
// presentation or a zoom on one grid shows.
std::vector<int> stage_with_inputs(const attn::Trace& trace, int stage);

// The computation-order column of every stage (same indexing as trace.stages).
// Parameters (W_*, positional encodings, biases) sit one column left of the
// stage that consumes them, like the articles draw X · W_Q -> Q.
std::vector<int> stage_columns(const attn::Trace& trace);
// The same columns with the projections of each head lane (a head stage made
// from a head parameter, e.g. Q = X·W_Q) spread out in pairs, parameter then
// result, in trace order; later columns move right to make room.
std::vector<int> side_by_side_columns(const attn::Trace& trace, std::vector<int> column);

}  // namespace model
