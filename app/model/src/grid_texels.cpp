// Texels for the large-grid path. Values become colormap coordinates with the
// same viz::coordinate() the per-cell path uses, then the LUT entry the
// shader shows, so the shader only indexes the LUT and both paths agree.
// Baking the entry (rather than passing per-row ranges to the shader) keeps
// one mapping in one place; the cost is new texels when the colour options
// change. 16 bits a cell instead of a float: a 2048² grid takes 8 MB, not 16.
#include "viz/grid_texels.hpp"

#include <algorithm>
#include <thread>

namespace viz {

std::uint16_t lut_texel(float u) {
  if (u < 0) return 0;
  return static_cast<std::uint16_t>(1 + static_cast<int>(std::clamp(u, 0.0f, 1.0f) * 255.0f + 0.5f));
}

std::vector<std::uint16_t> lut_texels(const attn::Stage& stage, const ColorScale& scale, int threads) {
  const int rows = static_cast<int>(stage.value.rows()), cols = static_cast<int>(stage.value.cols());
  std::vector<std::uint16_t> out(static_cast<size_t>(rows) * static_cast<size_t>(cols));
  // Eigen is column-major; GL wants row 0 first. Bands of columns keep both
  // the reads and the row-major writes in cache; a derived stage's band is
  // made a column at a time (StageValues::col: vectorised, the same numbers
  // as cell reads), never the whole n×n matrix.
  constexpr int kBand = 16;
  auto convert = [&](int band_begin, int band_end) {
    attn::Mat band(rows, kBand);
    for (int c0 = band_begin * kBand; c0 < std::min(cols, band_end * kBand); c0 += kBand) {
      const int width = std::min(cols - c0, kBand);
      for (int k = 0; k < width; ++k)
        band.col(k) = stage.value.derived() ? stage.value.col(c0 + k) : stage.value.stored().col(c0 + k);
      for (int r = 0; r < rows; ++r) {
        std::uint16_t* row = out.data() + static_cast<size_t>(r) * static_cast<size_t>(cols) + c0;
        for (int k = 0; k < width; ++k) {
          const double v = band(r, k);
          row[k] = masked_look(stage, r, c0 + k, v) ? std::uint16_t{0} : lut_texel(coordinate(scale, r, v));
        }
      }
    }
  };
  const int bands = (cols + kBand - 1) / kBand;
  if (threads < 2 || static_cast<long long>(rows) * cols < (1 << 18) || bands < 2) {
    convert(0, bands);
  } else {
    std::thread helper(convert, bands / 2, bands);
    convert(0, bands / 2);
    helper.join();
  }
  return out;
}

PreparedTexels prepare_texels(const attn::Trace& trace, const RowRanges& ranges, const TexelRequest& request,
                              const std::atomic<bool>* cancel) {
  PreparedTexels p;
  p.colour = request.colour;
  p.scales = color_scales(trace, request.colour, &ranges);
  p.stages.resize(trace.stages.size());
  LayoutOptions shown;
  shown.head = request.head;
  std::size_t bytes = 0;
  for (size_t i = 0; i < trace.stages.size(); ++i) {
    const attn::Stage& s = trace.stages[i];
    if (!uses_texture(s.value.rows(), s.value.cols()) || !shown_in_layout(trace, static_cast<int>(i), shown)) continue;
    const std::size_t size = static_cast<std::size_t>(s.value.rows()) * static_cast<std::size_t>(s.value.cols()) * 2;
    if (bytes + size > request.max_bytes) break;
    if (cancel && *cancel) throw attn::Cancelled();
    p.stages[i] = lut_texels(s, p.scales[i], request.threads);
    bytes += size;
  }
  return p;
}

}  // namespace viz
