// Thumbnails and the overview's texture atlas (head_atlas.hpp).
#include "model/hf/head_atlas.hpp"

#include <algorithm>

namespace model {

Thumbnail make_thumbnail(const attn::hf::AttentionMap<float>& w, int max_side) {
  Thumbnail t;
  const int n = static_cast<int>(std::min(w.rows(), w.cols()));
  t.side = std::min(n, std::max(1, max_side));
  if (n == 0) return t;
  const size_t cells = static_cast<size_t>(t.side) * static_cast<size_t>(t.side);
  t.values.assign(cells, 0.0f);
  t.masked.assign(cells, 0);
  // Block k covers rows (and columns) [k n / side, (k + 1) n / side).
  auto begin = [&](int k) { return static_cast<int>(static_cast<long long>(k) * n / t.side); };
  for (int bi = 0; bi < t.side; ++bi)
    for (int bj = 0; bj < t.side; ++bj) {
      double sum = 0;
      bool any = false;
      const int r0 = begin(bi), r1 = begin(bi + 1), c0 = begin(bj), c1 = begin(bj + 1);
      for (int r = r0; r < r1; ++r)
        for (int c = c0; c < c1; ++c) {
          const float v = w(r, c);
          sum += v;
          any = any || v != 0;
        }
      const size_t at = static_cast<size_t>(bi) * static_cast<size_t>(t.side) + static_cast<size_t>(bj);
      t.values[at] = static_cast<float>(sum / ((r1 - r0) * (c1 - c0)));
      t.masked[at] = any ? 0 : 1;
      t.max = std::max(t.max, t.values[at]);
    }
  return t;
}

HeadAtlas build_atlas(const std::vector<std::vector<Thumbnail>>& thumbnails, const Colourmap& map) {
  HeadAtlas a;
  a.layers = static_cast<int>(thumbnails.size());
  a.heads = a.layers ? static_cast<int>(thumbnails[0].size()) : 0;
  for (const auto& layer : thumbnails)
    for (const Thumbnail& t : layer) a.tile = std::max(a.tile, t.side);
  a.width = a.heads * a.tile;
  a.height = a.layers * a.tile;
  a.rgba.assign(static_cast<size_t>(a.width) * static_cast<size_t>(a.height) * 4, 0);
  const std::vector<std::uint8_t> lut = lookup_table(map, 256);
  for (int l = 0; l < a.layers; ++l)
    for (int h = 0; h < a.heads && h < static_cast<int>(thumbnails[static_cast<size_t>(l)].size()); ++h) {
      const Thumbnail& t = thumbnails[static_cast<size_t>(l)][static_cast<size_t>(h)];
      if (t.side == 0) continue;
      // A thumbnail smaller than the tile (a short text) is scaled up by whole pixels.
      for (int y = 0; y < a.tile; ++y)
        for (int x = 0; x < a.tile; ++x) {
          const size_t cell = static_cast<size_t>(y * t.side / a.tile) * static_cast<size_t>(t.side) +
                              static_cast<size_t>(x * t.side / a.tile);
          std::uint8_t* px = &a.rgba[(static_cast<size_t>(l * a.tile + y) * static_cast<size_t>(a.width) +
                                      static_cast<size_t>(h * a.tile + x)) * 4];
          if (t.masked[cell]) {
            // Plain grey: masked, not a weight of 0 (a hatch at the atlas's few
            // pixels a cell turned into scattered dots once enlarged).
            px[0] = px[1] = px[2] = kMaskedGrey;
          } else {
            const float u = t.max > 0 ? t.values[cell] / t.max : 0;
            const size_t i = static_cast<size_t>(std::clamp(u, 0.0f, 1.0f) * 255.0f + 0.5f) * 4;
            px[0] = lut[i];
            px[1] = lut[i + 1];
            px[2] = lut[i + 2];
          }
          px[3] = 255;
        }
    }
  return a;
}

}  // namespace model
