// Evaluates the animation at a moment: a pure function of (trace, timeline, t).
// Never reads a clock, so any moment can be reached, re-rendered or captured.
// The view only draws what a Frame says.
#pragma once

#include <vector>

#include "attn/explain/explain.hpp"
#include "model/animation/timeline.hpp"

namespace model {

// What kind of motion the active step shows (the transitions the articles animate).
enum class Transition {
  None,
  Project,      // X row times W column -> Q/K/V cell
  Sweep,        // a query row sweeping the keys -> score cells
  Scale,        // scores shrinking by 1/sqrt(d_k) or 1/tau
  Bias,         // ALiBi / positional bias added
  MaskBlank,    // blocked cells blanking to -inf (or zeroing after softmax)
  Softmax,      // exponentiate (first half) then normalise (second half)
  WeightedSum,  // weights scale value rows that sum into the output row
  Concat,       // heads sliding into the concatenation
  OutputProject // concat times W_O
};

struct Frame {
  double t = 0;
  int step = -1;          // active step index, -1 before start / empty
  double step_phase = 0;  // 0..1 progress within the active step (eased)
  bool finished = false;  // t >= total

  // Per trace stage: 0 = not yet shown, 1 = complete, between = being built.
  std::vector<float> stage_progress;

  // The active step, if any.
  int active_stage = -1;
  int active_row = -1, active_col = -1;
  Transition transition = Transition::None;
  // Cell granularity on sums: how many terms have been accumulated so far.
  int terms_done = 0;
  int terms_total = 0;
  // Cells to light up in source grids (query row, key column, value rows...).
  std::vector<attn::SourceRegion> highlights;
};

Frame evaluate(const attn::Trace& trace, const Timeline& tl, double t);

// How visible cell (r, c) of stage s is at this frame: 0 hidden .. 1 shown.
float cell_visibility(const attn::Trace& trace, const Timeline& tl, const Frame& f,
                      int stage, int r, int c);

// The value to draw for a cell at this frame: the final value once complete,
// or an interpolation that shows the transition (e.g. exp before normalising,
// a partial sum while products accumulate). Pure.
double displayed_value(const attn::Trace& trace, const Frame& f, int stage, int r, int c);

// The stage a presentation shows at this frame: the one being computed, or
// between steps the one just finished (at the start, the first to compute).
// -1 for an empty timeline.
int presented_stage(const Timeline& tl, const Frame& frame);

// Smooth ease used by every transition.
constexpr double ease_in_out(double x) {
  return x <= 0 ? 0 : x >= 1 ? 1 : x * x * (3 - 2 * x);
}

}  // namespace model
