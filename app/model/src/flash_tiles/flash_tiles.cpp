// The "FlashAttention tiles" panel's model: the stepping rules, and the
// core's run turned into grids the panel only has to colour. compute_flash
// runs here when the trace, head or blocks change, never in draw code.
#include "model/flash_tiles/flash_tiles.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "attn/explain/flash_explain.hpp"
#include "attn/text/format_number.hpp"

namespace model {

int clamp_block(int block, int n) { return std::clamp(block, 1, std::max(1, n)); }

int tile_order(FlashTileIndex t, int key_blocks) { return t.i * key_blocks + t.j; }

FlashTileIndex tile_at_order(int order, int query_blocks, int key_blocks) {
  if (query_blocks < 1 || key_blocks < 1) return {};
  order = std::clamp(order, 0, query_blocks * key_blocks - 1);
  return {order / key_blocks, order % key_blocks};
}

FlashTileIndex clamp_tile(FlashTileIndex t, int query_blocks, int key_blocks) {
  return {std::clamp(t.i, 0, std::max(0, query_blocks - 1)), std::clamp(t.j, 0, std::max(0, key_blocks - 1))};
}

FlashTileIndex next_tile(FlashTileIndex t, int query_blocks, int key_blocks) {
  return tile_at_order(tile_order(clamp_tile(t, query_blocks, key_blocks), key_blocks) + 1, query_blocks, key_blocks);
}

FlashTileIndex previous_tile(FlashTileIndex t, int query_blocks, int key_blocks) {
  return tile_at_order(tile_order(clamp_tile(t, query_blocks, key_blocks), key_blocks) - 1, query_blocks, key_blocks);
}

FlashTileIndex played_tile(int from, double seconds, int query_blocks, int key_blocks) {
  const int steps = seconds > 0 ? static_cast<int>(std::floor(seconds / kFlashSecondsPerTile)) : 0;
  return tile_at_order(from + steps, query_blocks, key_blocks);
}

bool play_finished(int from, double seconds, int query_blocks, int key_blocks) {
  return tile_order(played_tile(from, seconds, query_blocks, key_blocks), key_blocks) >= query_blocks * key_blocks - 1;
}

std::string tile_label(const FlashTilesView& view) {
  if (!view.ok()) return "no tiles";
  return "query block " + std::to_string(view.tile.i + 1) + " of " + std::to_string(view.query_blocks()) + ", key block " +
         std::to_string(view.tile.j + 1) + " of " + std::to_string(view.key_blocks());
}

std::string difference_label(const FlashTilesView& view) {
  if (!view.ok()) return "";
  return "same as the plain softmax path: max |difference| = " + attn::format_number(view.run.max_abs_diff, 2);
}

namespace {

// Probabilities (P, α) and the running sum are never negative: a one-sided
// map reads better for them than a diverging one centred on a zero they never cross.
bool flash_one_sided(attn::StageKind k) {
  return k == attn::StageKind::flash_p || k == attn::StageKind::flash_rescale || k == attn::StageKind::flash_sum;
}

FlashGrid flash_grid_of(const attn::Stage& s, attn::StageKind kind) {
  FlashGrid g;
  g.kind = kind;
  g.title = std::string(attn::info_of(kind).title);
  // The tile's own formula names this scene's divisor (√d_k, τ or none).
  g.formula = s.formula.empty() ? std::string(attn::info_of(kind).formula) : s.formula;
  g.values = s.value.dense();
  g.row_labels = s.row_labels;
  g.col_labels = s.col_labels;
  g.probability = flash_one_sided(kind);
  double hi = 0;
  for (Eigen::Index r = 0; r < g.values.rows(); ++r)
    for (Eigen::Index c = 0; c < g.values.cols(); ++c)
      if (std::isfinite(g.values(r, c))) hi = std::max(hi, std::abs(g.values(r, c)));
  g.hi = hi > 0 ? hi : 1;
  return g;
}

// The tiles' S_ij put back together: (n_q, n_k), only for the overview.
FlashGrid flash_whole_scores(const attn::FlashAttention& fa) {
  attn::Stage whole;
  attn::Mat m(fa.n_q, fa.n_k);  // (n_q, n_k)
  for (const attn::FlashBlock& b : fa.blocks)
    for (const attn::FlashTile& t : b.tiles) m.block(t.row0, t.col0, t.rows, t.cols) = t.scores.value.dense();
  whole.value = std::move(m);
  return flash_grid_of(whole, attn::StageKind::flash_scores);
}

}  // namespace

void FlashTilesModel::pick_tile(FlashTileIndex t) {
  view_.tile = t;
  view_.grids.clear();
  view_.block_done = false;
  if (!view_.ok()) return;
  const attn::FlashTile& tile = view_.run.tile(t.i, t.j);
  using K = attn::StageKind;
  view_.grids = {flash_grid_of(tile.scores, K::flash_scores), flash_grid_of(tile.max_old, K::flash_max_old),
                 flash_grid_of(tile.max_new, K::flash_max),   flash_grid_of(tile.rescale, K::flash_rescale),
                 flash_grid_of(tile.p, K::flash_p),           flash_grid_of(tile.sum, K::flash_sum),
                 flash_grid_of(tile.o, K::flash_o)};
  view_.block_done = t.j == view_.key_blocks() - 1;
  if (view_.block_done)
    view_.block_output = flash_grid_of(view_.run.blocks[static_cast<size_t>(t.i)].output, K::flash_block_output);
}

const FlashTilesView& FlashTilesModel::update(const attn::Trace& trace, std::uint64_t generation, int shown_head,
                                              FlashTilesState& state) {
  const int head = shown_head >= 0 ? shown_head : 0;
  state.block_rows = std::max(1, state.block_rows);
  state.block_cols = std::max(1, state.block_cols);
  state.sram = std::max(1LL, state.sram);
  const bool rerun = !built_ || generation != generation_ || head != built_head_ || state.block_rows != built_rows_ ||
                     state.block_cols != built_cols_;
  if (rerun) {
    built_ = true;
    generation_ = generation, built_head_ = head, built_rows_ = state.block_rows, built_cols_ = state.block_cols;
    built_sram_ = -1;
    view_ = FlashTilesView{};
    view_.head = head;
    view_.block_rows = state.block_rows, view_.block_cols = state.block_cols;
    view_.n_q = trace.dims.n_q, view_.n_k = trace.dims.n_k, view_.d_k = trace.dims.d_k, view_.d_v = trace.dims.d_v;
    ++runs_;
    try {
      view_.run = attn::compute_flash(trace, {head, state.block_rows, state.block_cols});
      view_.scores = flash_whole_scores(view_.run);
      view_.standard = attn::standard_attention_io(view_.n_q, view_.n_k, view_.d_k, view_.d_v);
      view_.tiled = attn::flash_attention_io(view_.n_q, view_.n_k, view_.d_k, view_.d_v, state.block_rows, state.block_cols,
                                             attn::FlashLoop::QueriesOuter);
    } catch (const std::exception& e) {  // invalid_argument from the core: its message is the panel's
      view_.error = e.what();
      if (view_.error.empty()) view_.error = "FlashAttention cannot run on this head";
      state.playing = false;
    }
    view_.tile = FlashTileIndex{-1, -1};
  }
  if (view_.ok() && state.sram != built_sram_) {
    built_sram_ = state.sram;
    // The paper has one head width d; the wider of d_k and d_v sizes its blocks.
    view_.paper_blocks = attn::paper_blocks(state.sram, std::max(view_.d_k, view_.d_v));
    view_.paper = attn::flash_attention_io(view_.n_q, view_.n_k, view_.d_k, view_.d_v, view_.paper_blocks.rows,
                                           view_.paper_blocks.cols, attn::FlashLoop::QueriesOuter);
    view_.paper_ok = true;
  }
  const int qb = view_.query_blocks(), kb = view_.key_blocks();
  if (state.playing) {
    state.tile = played_tile(state.play_from, state.play_seconds, qb, kb);
    if (play_finished(state.play_from, state.play_seconds, qb, kb)) state.playing = false;
  }
  state.tile = clamp_tile(state.tile, qb, kb);
  if (view_.ok() && state.tile != view_.tile) pick_tile(state.tile);

  // The hovered cell's explanation, once per cell.
  if (!state.hover || !view_.ok()) {
    view_.hovered_ok = false;
  } else if (!view_.hovered_ok || !(view_.hovered_cell == *state.hover)) {
    view_.hovered_cell = *state.hover;
    try {
      const FlashHover& h = *state.hover;
      view_.hovered = attn::explain_flash(view_.run, trace, {static_cast<attn::StageKind>(h.stage), h.tile.i, h.tile.j, h.row, h.col});
      view_.hovered_ok = true;
    } catch (const std::exception&) {
      view_.hovered_ok = false;
    }
  }
  return view_;
}

}  // namespace model
