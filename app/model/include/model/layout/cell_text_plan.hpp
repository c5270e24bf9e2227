// Whether a grid shows its numbers, and at what text size: the one decision
// the painter, the canvas hint and --dump-layout share. A grid shows a number
// in every drawn cell or in none, so a blank cell never sits among numbers
// (it would read as "not computed"). Text is measured through a callback, so
// this stays free of ImGui and is unit-tested with a fake font.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace model {

// Smallest text the canvas draws, in pixels. Numbers that do not fit at this
// size are hidden; hovering a cell still shows its exact value.
constexpr double kMinReadablePx = 8.5;
// Presenting (and on slides), the smallest number drawn: digits of 16 px
// still read from the back of a room at 1024×768, and a 24 px floor hid the
// numbers of most lesson steps (255 and 65025 need a wider cell than the
// step's grids had). A grid whose numbers would be smaller shows its colours
// alone, as a grid does on screen below kMinReadablePx.
constexpr double kProjectorMinPx = 16;

// Width in pixels of `text` drawn at a size of `px` pixels.
using TextWidth = std::function<double(const std::string& text, double px)>;

struct CellSize {
  double w = 0, h = 0;  // on screen, in pixels
};

struct CellTextPlan {
  bool numbers = false;  // every drawn cell shows its number; false: none does
  double px = 0;         // text size of every number of the grid (0 without numbers)
  int max_sig = 2;       // significant digits of the most precise form tried
  double near_zero = 0;  // nonzero |v| below this may read "≈0" (cell_format.hpp)
};

// Whether a cell of this size could hold any number at all (one digit at
// kMinReadablePx): callers skip gathering values when it could not.
bool cell_fits_text(CellSize cell, const TextWidth& width, double min_px = kMinReadablePx);

// A cell has room when the narrowest form of its value (compact_candidates'
// last) fits inside it, 3 px clear of its sides and top+bottom, at
// kMinReadablePx. The text size is what the cell asks for (40% of its
// shorter side, at most 17 px × text_scale, three digits from 44 px wide),
// shrunk until the narrowest form of every value fits; when that would go
// below kMinReadablePx the grid shows no numbers at all.
// `min_px` replaces kMinReadablePx where a larger smallest size is asked
// for (kProjectorMinPx).
CellTextPlan plan_cell_text(const std::vector<double>& values, CellSize cell, double text_scale,
                            const TextWidth& width, double min_px = kMinReadablePx);

// The most precise form of v that fits a cell under `plan`; "" when the plan
// shows no numbers. Never "" otherwise: a value the plan did not see falls
// back to its narrowest form even if that overflows the cell a little.
std::string cell_label(double v, const CellTextPlan& plan, CellSize cell, const TextWidth& width);

}  // namespace model
