// When a scenario cannot be computed because a value overflowed, the core
// names the stage cell; the student needs the numbers they typed that caused
// it. This walks back from that cell to the input entries it is computed
// from and keeps the largest ones, so the editor can open on them.
#pragma once

#include <string>
#include <vector>

#include "attn/compute/trace.hpp"

namespace model {

// One entry of an editable input matrix: X, the context, W_Q, W_K, W_V
// (with its head) or W_O, named by the kind of its grid.
struct InputCell {
  attn::StageKind matrix = attn::StageKind::x;
  int head = -1;
  int row = 0, col = 0;
  double value = 0;
  bool operator==(const InputCell& o) const {
    return matrix == o.matrix && head == o.head && row == o.row && col == o.col;
  }
};

// The inputs behind cell (row, col) of `stage` whose magnitude is within
// three orders of magnitude of the largest of them, largest first, at most
// `limit`. Empty when the stage is unknown or nothing feeds it.
std::vector<InputCell> offending_inputs(const attn::Scenario& s, const attn::StageRef& stage, int row, int col,
                                        size_t limit = 8);

// "X[0,0] (token "the")", "W_Q[2,1] (head 1)": how the editor names an entry.
std::string input_cell_name(const attn::Scenario& s, const InputCell& cell);

}  // namespace model
