// Where the compare view's two or three grids go: all in one row while the
// cells stay readable, else wrapped (A and B above B − A, or one per line)
// when that gives bigger cells, so numbers stay readable in a narrow window
// (a lesson at 1024×768 leaves the canvas under half the width).
#pragma once

#include <vector>

#include "model/layout/layout.hpp"

namespace model {

struct CompareRoom {
  double width = 0, height = 0;   // the space under the header
  int rows = 1, cols = 1;         // cells of each grid (the larger side when they differ)
  int grids = 3;
  double row_label_w = 0;         // left of the first grid of each line
  double title_h = 0;             // above each grid
  double col_label_h = 0;         // under each grid
  double gap = 0;                 // between grids, across and down
  double max_cell = 140, min_cell = 6;
  double readable_cell = 48;      // cells this big read well: keep the most grids per line that reach it
};

struct CompareLayout {
  double cell = 0;                // square cells, whole pixels
  int per_line = 1;
  std::vector<Vec2d> origins;     // each grid's title corner, relative to the room's corner
};

CompareLayout compare_layout(const CompareRoom& room);

}  // namespace model
