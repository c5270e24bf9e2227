// One cell of FlashAttention's tiles explained with its numbers, in the same
// structured form as explain() gives for a trace's stages (attn/explain/explain.hpp),
// so the CLI prints it and the app can show it the same way.
#pragma once

#include "attn/explain/explain.hpp"
#include "attn/flash/flash.hpp"

namespace attn {

// Which cell: a tile's grid (tile i, j; row and col inside the tile), a
// query block's output (block i; j unused) or the whole output (row and col
// of the sequence; i and j unused).
struct FlashCell {
  StageKind stage = StageKind::flash_scores;
  int i = 0, j = 0;
  int row = 0, col = 0;
};

// `fa` must come from compute_flash(trace, ...): the scores' products read
// the trace's Q and K, the partial outputs its V. Throws std::out_of_range
// naming the problem for a kind that is not a tile's, or a tile or cell
// that does not exist.
Explanation explain_flash(const FlashAttention& fa, const Trace& trace, const FlashCell& cell);

}  // namespace attn
