// FlashAttention, tile by tile, for teaching: one head of a trace computed
// the way FlashAttention(-2) does it, a block of B_r queries against a block
// of B_c keys at a time, with an online softmax (a running row max m and
// sum ℓ) so no n_q × n_k matrix of weights is ever whole. Every tile's
// intermediates are kept as grids (the StageKinds flash_*), so a student can
// step through the loop and check it against the plain trace it came from.
// This is the teaching path; it is checked against the plain head output.
#pragma once

#include <vector>

#include "attn/compute/trace.hpp"

namespace attn {

struct FlashOptions {
  int head = 0;
  int block_rows = 2;  // B_r: queries per block
  int block_cols = 2;  // B_c: keys (and values) per block
};

// The most tiles (query blocks × key blocks) one run keeps: every tile holds
// its own grids, so a long scene with tiny blocks would hold thousands of
// them. Refused above this, with a suggestion of larger blocks.
inline constexpr long long kMaxFlashTiles = 4096;
// The most numbers all the tiles' grids may hold together (256 MB of
// doubles): about 2 n_q n_k for the scores and P, plus n_q (d_v + 4) for
// each key block's partial outputs and running values.
inline constexpr long long kMaxFlashCells = 1LL << 25;

// One step of the inner loop: query block i against key block j.
// Shapes: r = rows (≤ B_r), c = cols (≤ B_c).
struct FlashTile {
  int i = 0, j = 0;        // block indices
  int row0 = 0, rows = 0;  // query rows row0 .. row0 + rows − 1
  int col0 = 0, cols = 0;  // key rows col0 .. col0 + cols − 1
  Stage scores;    // S_ij (r, c): Q_i K_jᵀ / √d_k (the scaled stage's divisor) (+ bias), −∞ where blocked
  Stage max_old;   // m before this tile (r, 1); −∞ at j = 0
  Stage max_new;   // m after it (r, 1)
  Stage rescale;   // exp(m_old − m_new) (r, 1): how much the old sum and output shrink
  Stage p;         // P_ij = exp(S_ij − m_new) (r, c)
  Stage sum;       // ℓ after this tile (r, 1)
  Stage o;         // O_i after this tile, not yet divided by ℓ (r, d_v)
};

// One query block: its tiles in key order, then its output rows O_i / ℓ.
struct FlashBlock {
  int i = 0, row0 = 0, rows = 0;
  std::vector<FlashTile> tiles;
  Stage output;  // (rows, d_v); a row whose every key is blocked is 0, as in the plain path
};

struct FlashAttention {
  int head = 0;
  int block_rows = 0, block_cols = 0;
  int n_q = 0, n_k = 0, d_v = 0;
  StageRef q, k, v;  // the trace's stages the tiles read (RoPE'd, or a group's shared K and V)
  std::vector<FlashBlock> blocks;
  Stage output;  // (n_q, d_v): the blocks' outputs stacked
  // Against the plain trace's head_output: the largest |difference| and where.
  double max_abs_diff = 0;
  int worst_row = 0, worst_col = 0;

  int query_blocks() const { return static_cast<int>(blocks.size()); }
  int key_blocks() const { return blocks.empty() ? 0 : static_cast<int>(blocks.front().tiles.size()); }
  // Throws std::out_of_range for a tile that does not exist.
  const FlashTile& tile(int i, int j) const;
};

// Head opts.head of `trace`, tile by tile. Throws std::invalid_argument, with
// a message saying why, for blocks below 1 or longer than the sequence, a
// head the trace lacks, too many tiles, and the options whose softmax is not
// a row-wise softmax of the logits (the mask after softmax, the softmax over
// queries, additive scores).
FlashAttention compute_flash(const Trace& trace, const FlashOptions& opts);

}  // namespace attn
