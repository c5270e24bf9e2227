// What the user controls in the "FlashAttention tiles" panel (kept in
// AppState): the block sizes, the on-chip memory for the traffic counter,
// the tile shown and whether it plays. The stepping rules are pure
// functions here so tests need neither a window nor a trace.
#pragma once

#include <optional>

namespace model {

// A tile: query block i against key block j.
struct FlashTileIndex {
  int i = 0, j = 0;
  bool operator==(const FlashTileIndex& o) const { return i == o.i && j == o.j; }
  bool operator!=(const FlashTileIndex& o) const { return !(*this == o); }
};

// A cell under the mouse in one of the tile's grids (a StageKind flash_*,
// stored as its number so this header needs no core include).
struct FlashHover {
  int stage = 0;
  FlashTileIndex tile;
  int row = 0, col = 0;
  bool operator==(const FlashHover& o) const { return stage == o.stage && tile == o.tile && row == o.row && col == o.col; }
};

struct FlashTilesState {
  int block_rows = 2;       // B_r
  int block_cols = 2;       // B_c
  long long sram = 1024;    // M, in elements, for the paper's block sizes
  FlashTileIndex tile;      // the tile shown
  bool playing = false;
  int play_from = 0;        // the tile (in loop order) play started from
  double play_seconds = 0;  // time since play started; the session adds each frame's dt
  std::optional<FlashHover> hover;  // set by the panel, explained by the model next frame
};

// Seconds each tile stays on screen while playing.
inline constexpr double kFlashSecondsPerTile = 1.0;

// A block size the -/+ buttons may reach: 1 .. n (the sequence length).
int clamp_block(int block, int n);

// Tiles in loop order (query block outside, key block inside): i * J + j.
int tile_order(FlashTileIndex t, int key_blocks);
FlashTileIndex tile_at_order(int order, int query_blocks, int key_blocks);
// The tile kept inside the grid when the block sizes change the tile counts.
FlashTileIndex clamp_tile(FlashTileIndex t, int query_blocks, int key_blocks);
// One step through the loop, forwards or back; it stops at either end.
FlashTileIndex next_tile(FlashTileIndex t, int query_blocks, int key_blocks);
FlashTileIndex previous_tile(FlashTileIndex t, int query_blocks, int key_blocks);
// The tile shown `seconds` after play started at tile `from` (loop order):
// one tile a second, holding at the last.
FlashTileIndex played_tile(int from, double seconds, int query_blocks, int key_blocks);
// Whether play has reached the last tile (and so stops).
bool play_finished(int from, double seconds, int query_blocks, int key_blocks);

}  // namespace model
