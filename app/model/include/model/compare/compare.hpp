// The compare view's model: two variants of a scene side by side with their
// difference, for one stage (and head). Either side is a fixed scenario (a
// snapshot the user took, or a lesson step's variant) or, when absent, the
// open document, so editing after a snapshot updates "now" live.
// Pure: traces in, matrices and messages out; the app draws them.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "attn/compute/trace.hpp"

namespace model {

struct CompareState {
  bool open = false;
  bool from_lesson = false;             // opened by a lesson step: leaving the step closes it
  std::optional<attn::Scenario> a, b;   // fixed sides; nullopt: the open document
  std::string label_a = "snapshot", label_b = "now";
  attn::StageKind stage = attn::StageKind::weights;
  int head = 0;
  std::uint64_t revision = 0;           // bumped when a fixed side changes (its trace is recomputed)
};

// A stage too big to draw cell by cell (more rows or columns than
// kShownCells: a layer of a real model at 1,000 tokens is a million cells a
// side, 580 MB of draw lists), reduced for the screen to blocks of
// block × block cells. A and B show each block's mean over its open cells,
// B − A the block's largest change with its sign, so no change is averaged
// away. A block is blocked only when every cell in it is (on either side,
// for B − A). block 1: nothing reduced, the matrices stay empty.
constexpr int kShownCells = 128;
struct ShownGrids {
  int block = 1;
  attn::Mat a, b, diff;
  attn::BoolMat blocked_a, blocked_b, blocked_diff;  // empty when nothing in them is blocked
};

// What the view shows for one stage: A, B and B − A when the shapes agree.
struct CompareGrids {
  std::string title;                    // the stage's title, e.g. "softmax weights"
  attn::ValueKind kind = attn::ValueKind::Signed;
  attn::Mat a, b, diff;                 // diff empty when it cannot be formed
  attn::BoolMat blocked_a, blocked_b;   // empty when nothing is blocked
  std::vector<std::string> rows_a, cols_a, rows_b, cols_b;
  std::string problem;                  // why there is no difference grid, or "" when there is one
  double max_abs_diff = 0;              // over cells open on both sides
  bool hidden = false;                  // a lesson question hides this stage: shapes only, no numbers
  ShownGrids shown;                     // what is drawn when the grids are too big for a cell each
};

// The blocks `g` is drawn with (see ShownGrids): blocks of the smallest
// size that leaves at most max_cells of them a side.
ShownGrids shown_grids(const CompareGrids& g, int max_cells = kShownCells);

// The one place the compare model reads a stage's numbers.
attn::Mat stage_matrix(const attn::Stage& s);

// Blocked cells (−∞ logits, masked weights) have no difference: diff holds 0
// there and the view hatches them; a cell blocked on one side only counts as
// blocked. Never NaN. A difference within rounding (at most kRoundingUlps
// units in the last place of the grid's largest magnitude, as when the same
// numbers are added in another order) is exactly 0.
constexpr double kRoundingUlps = 64;
// `max_cells`: the most cells a side drawn one by one (see ShownGrids).
CompareGrids compare_stage(const attn::Trace& a, const attn::Trace& b, attn::StageKind stage, int head,
                           int max_cells = kShownCells);

// What the view may show while a lesson question keeps `hidden` hidden:
// compare_stage, or, when the stage is one of them, the same shapes with
// every number, blocked pattern and the largest change wiped (so nothing on
// screen, in a tooltip or in the header gives the answer away).
CompareGrids compare_for_view(const attn::Trace& a, const attn::Trace& b, attn::StageKind stage, int head,
                              const std::vector<attn::StageKind>& hidden, int max_cells = kShownCells);

// The most cells a side the compare view draws one by one in a canvas
// `width` px wide: three grids of at least 2 px a cell beside their labels
// (at 1024×768 the canvas is about 420 px: 31 a side).
int shown_cells_for(double width);

// Stages both traces have, in A's pipeline order, for the stage picker.
std::vector<attn::StageKind> comparable_stages(const attn::Trace& a, const attn::Trace& b);

// The traces of the fixed sides, recomputed only when the state's revision
// changes. A side that cannot be computed gives an error message instead.
class CompareTraces {
 public:
  void update(const CompareState& state);
  const attn::Trace* a() const { return a_.get(); }
  const attn::Trace* b() const { return b_.get(); }
  const std::string& error() const { return error_; }

 private:
  std::shared_ptr<const attn::Trace> a_, b_;
  std::string error_;
  std::uint64_t revision_ = ~0ull;
};

}  // namespace model
