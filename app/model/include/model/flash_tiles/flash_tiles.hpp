// What the "FlashAttention tiles" panel shows for one head: the core's
// tile-by-tile run (attn::compute_flash), the current tile's grids ready to
// colour, the whole score matrix for the overview, the check against the
// plain path and the slow-memory counts. FlashTilesModel recomputes only
// when the trace, the head or the block sizes change; stepping tiles only
// picks other grids. A refusal from the core becomes `error`, never a throw.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "attn/explain/explain.hpp"
#include "attn/flash/flash.hpp"
#include "attn/flash/flash_io.hpp"
#include "model/flash_tiles/flash_tiles_state.hpp"

namespace model {

// One grid of the tile, with the range its colours cover.
struct FlashGrid {
  attn::StageKind kind = attn::StageKind::flash_scores;
  std::string title, formula;  // from the stage table
  attn::Mat values;            // (rows, cols); −∞ where blocked
  std::vector<std::string> row_labels, col_labels;
  bool probability = false;    // 0 .. hi on the probability map; else ±hi on the signed map
  double hi = 1;               // the largest finite |value| (1 when none)
};

struct FlashTilesView {
  std::string error;           // why the core refused; empty when it ran
  int head = 0;
  int block_rows = 0, block_cols = 0;
  int n_q = 0, n_k = 0, d_k = 0, d_v = 0;
  attn::FlashAttention run;
  FlashTileIndex tile;         // the tile the grids below belong to
  std::vector<FlashGrid> grids;     // S_ij, m_old, m_new, α, P, ℓ, O_i
  bool block_done = false;          // the tile is its query block's last: its output is final
  FlashGrid block_output;           // O_i / ℓ, when block_done
  FlashGrid scores;                 // the whole (n_q, n_k) S, from the tiles, for the overview
  attn::HbmTraffic standard, tiled, paper;  // slow-memory elements: plain; the user's blocks; the paper's
  attn::FlashBlocks paper_blocks;            // the paper's B_r, B_c for M
  bool paper_ok = false;
  attn::Explanation hovered;        // the explanation of state.hover, when hovered_ok
  bool hovered_ok = false;
  FlashHover hovered_cell;

  bool ok() const { return error.empty(); }
  int query_blocks() const { return ok() ? run.query_blocks() : 0; }
  int key_blocks() const { return ok() ? run.key_blocks() : 0; }
};

// "query block 1 of 3, key block 2 of 5" (counted from 1).
std::string tile_label(const FlashTilesView& view);
// "same as the plain softmax path: max |difference| = 3e-16".
std::string difference_label(const FlashTilesView& view);

class FlashTilesModel {
 public:
  // Brings the view up to date with the trace, the head (-1: head 0) and
  // `state`, whose tile it clamps and whose play it advances.
  const FlashTilesView& update(const attn::Trace& trace, std::uint64_t generation, int shown_head, FlashTilesState& state);
  const FlashTilesView& view() const { return view_; }
  int runs() const { return runs_; }  // compute_flash calls, for tests

 private:
  void pick_tile(FlashTileIndex t);
  FlashTilesView view_;
  std::uint64_t generation_ = 0;
  int built_head_ = -1, built_rows_ = -1, built_cols_ = -1;
  long long built_sram_ = -1;
  bool built_ = false;
  int runs_ = 0;
};

}  // namespace model
