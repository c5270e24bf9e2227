// Texels for the large-grid path. Values become colormap coordinates with the
// same viz::coordinate() the per-cell path uses, then the LUT entry the
// shader shows, so the shader only indexes the LUT and both paths agree.
// Baking the entry (rather than passing per-row ranges to the shader) keeps
// one mapping in one place; the cost is new texels when the colour options
// change. 16 bits a cell instead of a float: a 2048² grid takes 8 MB, not 16.
#include "viz/grid_texels.hpp"

#include <algorithm>
#include <limits>
#include <thread>

namespace viz {

std::uint16_t lut_texel(float u) {
  if (u < 0) return 0;
  return static_cast<std::uint16_t>(1 + static_cast<int>(std::clamp(u, 0.0f, 1.0f) * 255.0f + 0.5f));
}

namespace {

// The texels of one column of a linear scale (the default): the same
// operations as coordinate_in() and lut_texel(), as whole-column array steps
// that Eigen vectorises. At 2048 tokens a head's grids are 17 M cells,
// remade on every edit. (max/min give std::clamp's result for every finite
// value; a non-finite one takes the masked texel anyway.) `lo`, `hi` and
// `span` (hi - lo) hold each row's range; `u` is scratch.
void linear_column(const ColorScale& scale, bool diverging, const double* v, const bool* blocked,
                   const Eigen::ArrayXd& lo, const Eigen::ArrayXd& hi, const Eigen::ArrayXd& span, Eigen::ArrayXf&,
                   std::uint16_t* out) {
  const int rows = static_cast<int>(lo.size());
  if (scale.kind == attn::ValueKind::Signed) {
    for (int r = 0; r < rows; ++r) {
      const float u = static_cast<float>(0.5 + 0.5 * std::clamp(v[r] / hi[r], -1.0, 1.0));
      const auto texel = static_cast<std::uint16_t>(1 + static_cast<int>(std::clamp(u, 0.0f, 1.0f) * 255.0f + 0.5f));
      out[r] = std::isfinite(v[r]) ? texel : std::uint16_t{0};
    }
    return;
  }
  for (int r = 0; r < rows; ++r) {
    const double t = std::clamp((v[r] - lo[r]) / span[r], 0.0, 1.0);
    const float u = static_cast<float>(diverging ? 0.5 + 0.5 * t : t);
    const auto texel = static_cast<std::uint16_t>(1 + static_cast<int>(std::clamp(u, 0.0f, 1.0f) * 255.0f + 0.5f));
    const bool masked = !std::isfinite(v[r]) || (blocked && blocked[r] && v[r] == 0);
    out[r] = masked ? std::uint16_t{0} : texel;
  }
}

}  // namespace

std::vector<std::uint16_t> lut_texels(const attn::Stage& stage, const ColorScale& scale, int threads) {
  const int rows = static_cast<int>(stage.value.rows()), cols = static_cast<int>(stage.value.cols());
  // Column-major, as Eigen stores the values: each column is read and
  // written in one straight pass. (Row-major texels cost a cache miss and a
  // TLB miss per row and column band: two thirds of the time at 2048 tokens.)
  // A derived stage is made a column at a time (StageValues::col: the same
  // numbers as cell reads), never the whole n×n matrix.
  std::vector<std::uint16_t> out(static_cast<size_t>(rows) * static_cast<size_t>(cols));
  const bool diverging = colormap(scale.map).diverging;
  const bool* blocked = stage.blocked.size() == stage.value.size() ? stage.blocked.data() : nullptr;
  const bool linear = !scale.log && stage.kind != attn::ValueKind::Mask && scale.kind == stage.kind;
  Eigen::ArrayXd lo(rows), hi(rows), span(rows);
  for (int r = 0; r < rows; ++r) {
    const ValueRange& g = scale.range_of(r);
    lo(r) = g.lo, hi(r) = g.hi, span(r) = g.hi - g.lo;
  }
  auto convert = [&](int begin, int end) {
    Eigen::VectorXd column(rows);
    Eigen::ArrayXf u(rows);
    for (int c = begin; c < end; ++c) {
      if (stage.value.derived()) column = stage.value.col(c);
      const double* v = stage.value.derived() ? column.data() : stage.value.stored().data() + static_cast<size_t>(c) * rows;
      std::uint16_t* texels = out.data() + static_cast<size_t>(c) * rows;
      if (linear) {
        linear_column(scale, diverging, v, blocked ? blocked + static_cast<size_t>(c) * rows : nullptr, lo, hi, span, u,
                      texels);
        continue;
      }
      for (int r = 0; r < rows; ++r)
        texels[r] = masked_look(stage, r, c, v[r]) ? std::uint16_t{0} : lut_texel(coordinate(scale, r, v[r]));
    }
  };
  if (threads < 2 || static_cast<long long>(rows) * cols < (1 << 18) || cols < 2) {
    convert(0, cols);
  } else {
    std::thread helper(convert, cols / 2, cols);
    convert(0, cols / 2);
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
