// The compare view's arrangement: the most grids per line whose cells are
// readable, else the wrap that gives the largest cells.
#include "model/compare/compare_layout.hpp"

#include <algorithm>
#include <cmath>

namespace model {

CompareLayout compare_layout(const CompareRoom& r) {
  const int n = std::max(r.grids, 1);
  CompareLayout best;
  best.cell = -1;
  for (int k = n; k >= 1; --k) {  // grids per line, most first: ties keep one line
    const int lines = (n + k - 1) / k;
    const double cell_w = (r.width - r.row_label_w - (k - 1) * r.gap) / (k * std::max(r.cols, 1));
    const double cell_h = (r.height - lines * (r.title_h + r.col_label_h) - (lines - 1) * r.gap) / (lines * std::max(r.rows, 1));
    const double cell = std::floor(std::clamp(std::min({cell_w, cell_h, r.max_cell}), r.min_cell, std::max(r.max_cell, r.min_cell)));
    if (cell > best.cell) best.cell = cell, best.per_line = k;
    if (cell >= r.readable_cell) break;  // side by side reads best; wrap only to make small cells readable
  }
  const double line_h = r.title_h + r.rows * best.cell + r.col_label_h + r.gap;
  for (int i = 0; i < n; ++i)
    best.origins.push_back({r.row_label_w + (i % best.per_line) * (r.cols * best.cell + r.gap), (i / best.per_line) * line_h});
  return best;
}

}  // namespace model
