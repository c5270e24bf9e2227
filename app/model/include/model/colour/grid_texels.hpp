// The large-grid path's pixels, made on the CPU without GL: each cell of a
// grid with more than kTextureThreshold cells becomes a 16-bit texel, 0 for
// the masked look, else 1 + the entry of the 256-entry LUT its colour
// coordinate selects. The window only uploads them (model::GridTextures).
// Making them is the costly part (at 2048 tokens, four 4 M-cell grids a
// head), so after a background recompute a step of its own
// (model/session/texel_step.hpp) makes the texels of the grids on screen
// (prepare_texels) before the trace is shown, and the frame that installs
// it only uploads.
#pragma once

#include <atomic>
#include <cmath>
#include <cstdint>
#include <vector>

#include "attn/compute/trace.hpp"
#include "model/colour/colour_options.hpp"
#include "model/colour/colour_scale.hpp"
#include "model/layout/layout.hpp"

namespace model {

// Grids with more cells than this draw through the shader, not per-cell rects.
constexpr long long kTextureThreshold = 64 * 64;
inline bool uses_texture(long long rows, long long cols) { return rows * cols > kTextureThreshold; }
inline bool uses_texture(const GridBox& g) { return uses_texture(g.rows, g.cols); }

// A blocked cell gets the masked look once its value says so: −∞ logits, or
// a zero weight. (With the mask applied after softmax, the logits and the raw
// softmax are not blocked yet, so they keep their colours.)
inline bool masked_look(const attn::Stage& s, int r, int c, double v) {
  if (!std::isfinite(v)) return true;
  return s.is_blocked(r, c) && s.kind == attn::ValueKind::Probability && v == 0;
}

// The texel of a colourmap coordinate u in [0, 1] (negative: masked).
std::uint16_t lut_texel(float u);
// Packs a stage into texels, column-major (cell (r, c) at c * rows + r, as
// Eigen stores values; the texture is the grid transposed), on `threads`
// threads (1 or 2).
std::vector<std::uint16_t> lut_texels(const attn::Stage& stage, const ColourScale& scale, int threads = 2);

// What the window will show of the next trace: its colours and its head.
struct TexelRequest {
  ColourOptions colour;
  int head = -1;  // LayoutOptions::head
  // Both cores, like the rest of a background recompute (which runs below
  // the window's priority): at 2048 tokens about 60 ms of a W_Q edit's 0.25 s.
  int threads = 2;
  // Texels made ahead at most: with every head on screen a 2048-token scene
  // has 48 grids of 8 MB; the ones past the budget are made when drawn.
  std::size_t max_bytes = std::size_t{96} << 20;
};

// Texels of one trace for one colour choice; `stages` is parallel to
// trace.stages, empty for the grids not made ahead.
struct PreparedTexels {
  ColourOptions colour;
  std::vector<ColourScale> scales;
  std::vector<std::vector<std::uint16_t>> stages;
  const std::vector<std::uint16_t>* find(int stage) const {
    if (stage < 0 || stage >= static_cast<int>(stages.size())) return nullptr;
    const auto& t = stages[static_cast<size_t>(stage)];
    return t.empty() ? nullptr : &t;
  }
};

// The one place a grid's texels come from: made ahead (`prepared`, when it
// has them) or made now into `scratch` with `scales`. The window only uploads.
const std::vector<std::uint16_t>& texels_of(const attn::Trace& trace, int stage, const std::vector<ColourScale>& scales,
                                            const PreparedTexels* prepared, std::vector<std::uint16_t>& scratch);

// The scales and the texels of every large grid `request.head` lays out, in
// trace order, until the budget. Throws attn::Cancelled once `cancel` is set.
PreparedTexels prepare_texels(const attn::Trace& trace, const RowRanges& ranges, const TexelRequest& request,
                              const std::atomic<bool>* cancel = nullptr);

}  // namespace model
