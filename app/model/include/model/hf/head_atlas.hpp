// Every head's weights as one small picture, all in one RGBA atlas: the
// overview draws 144 heads (GPT-2) as 144 quads of one texture instead of
// hundreds of thousands of rectangles. Built here, off the window, so the
// view only uploads it once per result.
#pragma once

#include <cstdint>
#include <vector>

#include "attn/hf/forward/forward.hpp"
#include "model/colour/colourmap.hpp"

namespace model {

// One head's weights averaged over blocks to at most max_side x max_side
// cells; a cell is masked when every weight in its block is exactly 0 (the
// forward pass leaves masked entries exactly 0).
struct Thumbnail {
  int side = 0;
  std::vector<float> values;  // (side, side), row-major: row = query block
  std::vector<char> masked;   // same shape
  float max = 0;              // the largest value (the tile's colour range is 0..max)
};
Thumbnail make_thumbnail(const attn::hf::AttentionMap<float>& w, int max_side = 64);

struct HeadAtlas {
  int layers = 0, heads = 0;
  int tile = 0;               // pixels per side of one head's picture
  int width = 0, height = 0;  // heads * tile, layers * tile
  std::vector<std::uint8_t> rgba;  // (height, width, 4), row-major; head h of layer l at (h * tile, l * tile)
};
// [layer][head] thumbnails, each coloured from 0 to its own largest weight
// (the long-range weights of a long text are small); masked cells grey.
constexpr std::uint8_t kMaskedGrey = 200;
HeadAtlas build_atlas(const std::vector<std::vector<Thumbnail>>& thumbnails, const Colourmap& map);

}  // namespace model
