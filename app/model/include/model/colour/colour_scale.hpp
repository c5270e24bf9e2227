// How each grid turns a value into a colour: a range (the legend's ends),
// per grid, shared, global or per row, with an optional log scale for
// probabilities, then a coordinate u in [0, 1] on the chosen colourmap. Pure,
// computed once per trace and colour options; both render paths call
// coordinate(), so the shader path (which gets u baked into its texture)
// and the per-cell path cannot disagree.
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "attn/compute/trace.hpp"
#include "model/colour/colourmap.hpp"
#include "model/colour/colour_options.hpp"

namespace model {

// The log scale starts here: weights below 1e-6 all take the lightest colour
// (a weight that small contributes nothing visible to the output).
constexpr double kLogFloor = 1e-6;

struct ValueRange {
  double lo = 0, hi = 1;
};

struct ColourScale {
  attn::ValueKind kind = attn::ValueKind::Signed;
  ColourmapId map = ColourmapId::RedBlue;
  Contrast contrast = Contrast::Grid;
  bool shared = false;           // the range covers every head's grid of this stage
  bool log = false;              // probabilities: log10 between max(lo, kLogFloor) and hi
  ValueRange range;              // signed: lo = -hi (zero in the middle); Row: the union of rows
  std::vector<ValueRange> rows;  // Contrast::Row: one range per row
  // Per-row contrast chosen for this grid although the options say per grid:
  // weights over many keys, so flat that one range would paint them white.
  bool auto_row = false;
  // Contrast::Percentile: the range ends at the 99th percentile, and a value
  // past an end (beyond()) is drawn at that end's colour and marked.
  bool robust = false;
  const ValueRange& range_of(int row) const;
};

// The percentile a robust range ends at, and how many values of a grid are
// looked at to find it: every value up to this many, an even stride over a
// larger grid (a 2048×2048 grid is sampled, not sorted).
constexpr double kRobustPercentile = 0.99;
constexpr long kRobustSample = 1L << 18;

// The kRobustPercentile-th of |v| (signed) or of v (probabilities) over the
// finite, unblocked values of `stages`' grids; 0 when there are none.
double robust_magnitude(const attn::Trace& trace, const std::vector<size_t>& stages);

// Whether v lies past its scale's range: drawn at the end colour, marked.
bool beyond(const ColourScale& scale, int row, double v);

// Weights whose rows are this long and whose typical (median) largest weight
// is below kFlatRowPeak are coloured per row at the per-grid contrast: a
// 1024-key softmax row peaks around 0.01, white on a 0..1 scale.
constexpr long kLongRowKeys = 64;
constexpr double kFlatRowPeak = 0.2;

// One scale per stage of the trace (parallel to trace.stages).
// Per stage, the range of each row's counted values (what every contrast mode
// is built from; independent of the options, so it is computed once per
// trace, on the worker thread for big traces: TraceModel::row_ranges()).
using RowRanges = std::vector<std::vector<ValueRange>>;
RowRanges trace_row_ranges(const attn::Trace& trace);
// The same, reusing `before_ranges` for every stage whose values are the very
// same matrices as in `before` (an incremental update shares them), so an
// edit of one head costs that head's ranges only.
RowRanges trace_row_ranges(const attn::Trace& trace, const attn::Trace& before, const RowRanges& before_ranges);

// The row ranges of a derived stage from its source, without deriving every
// cell: the scaled and masked logits (no bias) from the scores, the softmax
// weights over rows from their extreme logits. The same ranges as a scan;
// false, for any other stage, and trace_row_ranges then scans.
bool derived_row_ranges(const attn::Stage& stage, std::vector<ValueRange>& out);

// `ranges`: trace_row_ranges(trace) when already computed, else null.
std::vector<ColourScale> colour_scales(const attn::Trace& trace, const ColourOptions& options,
                                     const RowRanges* ranges = nullptr);

// The colourmap coordinate of value v in row `row`: signed values put zero at
// 0.5; probabilities run over [0, 1] on a sequential map and over [0.5, 1]
// (white to one hue) on a diverging one. Non-finite values take an end.
float coordinate(const ColourScale& scale, int row, double v);

// coordinate() with the row's range and the map's kind already looked up:
// the texel loop calls it per cell (millions a grid), everything else per
// cell through coordinate(), so both give the same u.
inline float coordinate_in(const ColourScale& s, const ValueRange& g, bool diverging, double v) {
  if (s.kind == attn::ValueKind::Mask) return v > 0.5 ? 1.0f : 0.0f;
  if (s.kind == attn::ValueKind::Signed) {
    if (std::isnan(v)) return 0.5f;
    return static_cast<float>(0.5 + 0.5 * std::clamp(v / g.hi, -1.0, 1.0));
  }
  double t;
  if (std::isnan(v)) {
    t = 0;
  } else if (s.log) {
    const double lo = std::log10(std::max(g.lo, kLogFloor)), hi = std::log10(std::max(g.hi, kLogFloor));
    t = hi > lo ? (std::log10(std::max(v, kLogFloor)) - lo) / (hi - lo) : (v >= g.hi ? 1.0 : 0.0);
  } else {
    t = (v - g.lo) / (g.hi - g.lo);
  }
  t = std::clamp(t, 0.0, 1.0);
  return static_cast<float>(diverging ? 0.5 + 0.5 * t : t);
}

inline Rgba colour_of(const ColourScale& scale, int row, double v) { return sample(colourmap(scale.map), coordinate(scale, row, v)); }

// What a grid's legend says: the numbers at the colour bar's ends and at its
// zero (when zero is on the bar), and which part of the bar is used.
struct Legend {
  std::string lo, zero, hi;  // zero empty when the bar has no zero mark
  float zero_u = -1;         // where zero sits along the bar, 0..1; -1: not on it
  float u0 = 0, u1 = 1;      // the colourmap interval the bar shows
  std::string note;          // "per row", "log", "shared", "99th percentile", ...
};
Legend legend_of(const ColourScale& scale);

}  // namespace model
