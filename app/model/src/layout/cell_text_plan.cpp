// The grid-wide number decision: one text size for the whole grid, the
// largest at which every value's narrowest form fits its cell. Text width
// grows with size but not exactly in proportion (fonts are rasterised at a
// few sizes, with hinting), so each smaller size is measured again.
#include "model/layout/cell_text_plan.hpp"

#include <algorithm>

#include "model/layout/cell_format.hpp"

namespace model {
namespace {

constexpr double kMarginPx = 3;        // text keeps this clear of the cell's sides (and top + bottom)
constexpr double kCellFraction = 0.4;  // the text size a cell asks for, of its shorter side
constexpr double kLargestPx = 17;      // times text_scale
constexpr double kThreeDigitsPx = 44;  // cells at least this wide try three significant digits

double room(CellSize cell) { return cell.w - kMarginPx; }

double widest(const std::vector<std::string>& texts, double px, const TextWidth& width) {
  double w = 0;
  for (const std::string& t : texts) w = std::max(w, width(t, px));
  return w;
}

}  // namespace

bool cell_fits_text(CellSize cell, const TextWidth& width, double min_px) {
  return cell.h - kMarginPx >= min_px && width("0", min_px) <= room(cell);
}

CellTextPlan plan_cell_text(const std::vector<double>& values, CellSize cell, double text_scale,
                            const TextWidth& width, double min_px) {
  CellTextPlan plan;
  plan.max_sig = cell.w >= kThreeDigitsPx ? 3 : 2;
  if (!cell_fits_text(cell, width, min_px)) return plan;  // no need to look at the values
  const double tallest = cell.h - kMarginPx;
  double px = std::clamp(std::min(kCellFraction * std::min(cell.w, cell.h), kLargestPx * text_scale), min_px, tallest);

  plan.near_zero = near_zero_bound(values, plan.max_sig);
  std::vector<std::string> narrowest;
  narrowest.reserve(values.size());
  for (double v : values) narrowest.push_back(narrowest_candidate(v, plan.near_zero));
  std::sort(narrowest.begin(), narrowest.end());
  narrowest.erase(std::unique(narrowest.begin(), narrowest.end()), narrowest.end());

  while (true) {
    const double w = widest(narrowest, px, width);
    if (w <= room(cell)) {
      plan.numbers = true;
      plan.px = px;
      return plan;
    }
    if (px <= min_px) break;
    // Proportional shrink, and at least 0.1 px, so the loop always ends.
    px = std::max(min_px, std::min(px * room(cell) / w, px - 0.1));
  }
  return plan;
}

std::string cell_label(double v, const CellTextPlan& plan, CellSize cell, const TextWidth& width) {
  if (!plan.numbers) return {};
  std::vector<std::string> candidates = compact_candidates(v, plan.max_sig, plan.near_zero);
  for (std::string& c : candidates)
    if (width(c, plan.px) <= room(cell)) return std::move(c);
  return candidates.back();
}

}  // namespace model
