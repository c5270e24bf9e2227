// Texels for the large-grid path. Values become colourmap coordinates with the
// same model::coordinate() the per-cell path uses, then the LUT entry the
// shader shows, so the shader only indexes the LUT and both paths agree.
// Baking the entry (rather than passing per-row ranges to the shader) keeps
// one mapping in one place; the cost is new texels when the colour options
// change. 16 bits a cell instead of a float: a 2048² grid takes 8 MB, not 16.
#include "model/colour/grid_texels.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "attn/execution/parallel.hpp"

namespace model {

namespace {

// The LUT entry of a coordinate u that is not NaN (u < 0 gives entry 0, the
// same as u = 0; callers choose the masked texel).
std::uint16_t texel_of(float u) {
  return static_cast<std::uint16_t>(1 + static_cast<int>(std::min(std::max(u, 0.0f), 1.0f) * 255.0f + 0.5f));
}

}  // namespace

std::uint16_t lut_texel(float u) { return u < 0 ? std::uint16_t{0} : texel_of(u); }

namespace {

// The texels of one column of a linear scale (the default) are the same
// operations as coordinate_in() and lut_texel(), written without branches so
// the compiler vectorises them (with the compile option in CMakeLists.txt):
// at 2048 tokens a head's grids are 17 M cells, remade on every edit, and the
// branchy loops took about twice as long. For a value that is not NaN,
// std::min/std::max give std::clamp's result; a non-finite value takes the
// masked texel, and is replaced by 0 first so no NaN is converted to int.
// `lo`, `hi` and `span` (hi - lo) hold each row's range.

// std::isfinite, in a form the vectoriser takes.
bool finite(double v) { return std::abs(v) <= std::numeric_limits<double>::max(); }

void signed_column(const double* v, const double* hi, int rows, std::uint16_t* out) {
  for (int r = 0; r < rows; ++r) {
    const bool open = finite(v[r]);
    const double x = open ? v[r] : 0.0;
    const float u = static_cast<float>(0.5 + 0.5 * std::min(std::max(x / hi[r], -1.0), 1.0));
    out[r] = static_cast<std::uint16_t>(texel_of(u) * open);  // a product, not a branch: it vectorises
  }
}

// `offset` + `gain` · t: 0.5 + 0.5 t on a diverging map, else 0 + 1 t, which
// is t exactly (up to the sign of a zero, which gives the same texel).
// `blocked` is read as bytes (a bool is one): the vectoriser has no vector
// of bool.
template <bool kBlocked>
void probability_column(const double* v, const unsigned char* blocked, const double* lo, const double* span, double offset,
                        double gain, int rows, std::uint16_t* out) {
  for (int r = 0; r < rows; ++r) {
    const double x = finite(v[r]) ? v[r] : 0.0;
    const double t = std::min(std::max((x - lo[r]) / span[r], 0.0), 1.0);
    const bool open = finite(v[r]) & !(kBlocked && (blocked[r] != 0) & (v[r] == 0));
    out[r] = static_cast<std::uint16_t>(texel_of(static_cast<float>(offset + gain * t)) * open);
  }
}

void linear_column(const ColourScale& scale, bool diverging, const double* v, const bool* blocked,
                   const Eigen::ArrayXd& lo, const Eigen::ArrayXd& hi, const Eigen::ArrayXd& span, std::uint16_t* out) {
  const int rows = static_cast<int>(lo.size());
  if (scale.kind == attn::ValueKind::Signed) return signed_column(v, hi.data(), rows, out);
  const double offset = diverging ? 0.5 : 0.0, gain = diverging ? 0.5 : 1.0;
  if (blocked)
    probability_column<true>(v, reinterpret_cast<const unsigned char*>(blocked), lo.data(), span.data(), offset, gain, rows, out);
  else probability_column<false>(v, nullptr, lo.data(), span.data(), offset, gain, rows, out);
}

}  // namespace

std::vector<std::uint16_t> lut_texels(const attn::Stage& stage, const ColourScale& scale, int threads) {
  const int rows = static_cast<int>(stage.value.rows()), cols = static_cast<int>(stage.value.cols());
  // Column-major, as Eigen stores the values: each column is read and
  // written in one straight pass. (Row-major texels cost a cache miss and a
  // TLB miss per row and column band: two thirds of the time at 2048 tokens.)
  // A derived stage is made a column at a time (StageValues::col: the same
  // numbers as cell reads), never the whole n×n matrix.
  std::vector<std::uint16_t> out(static_cast<size_t>(rows) * static_cast<size_t>(cols));
  const bool diverging = colourmap(scale.map).diverging;
  const bool* blocked = stage.blocked.size() == stage.value.size() ? stage.blocked.data() : nullptr;
  const bool linear = !scale.log && stage.kind != attn::ValueKind::Mask && scale.kind == stage.kind;
  Eigen::ArrayXd lo(rows), hi(rows), span(rows);
  for (int r = 0; r < rows; ++r) {
    const ValueRange& g = scale.range_of(r);
    lo(r) = g.lo, hi(r) = g.hi, span(r) = g.hi - g.lo;
  }
  auto convert = [&](int begin, int end) {
    Eigen::VectorXd column(rows);
    for (int c = begin; c < end; ++c) {
      if (stage.value.derived()) column = stage.value.col(c);
      const double* v = stage.value.derived() ? column.data() : stage.value.stored().data() + static_cast<size_t>(c) * rows;
      std::uint16_t* texels = out.data() + static_cast<size_t>(c) * rows;
      if (linear) {
        linear_column(scale, diverging, v, blocked ? blocked + static_cast<size_t>(c) * rows : nullptr, lo, hi, span,
                      texels);
        continue;
      }
      for (int r = 0; r < rows; ++r)
        texels[r] = masked_look(stage, r, c, v[r]) ? std::uint16_t{0} : lut_texel(coordinate(scale, r, v[r]));
    }
  };
  // Halves of the columns on the core's threads; a quarter of a million
  // cells or fewer are quicker on one.
  const int parts = threads < 2 || static_cast<long long>(rows) * cols < (1 << 18) || cols < 2 ? 1 : 2;
  attn::parallel_for(parts, parts, 10.0 * rows * (cols / parts),
                     [&](int part) { convert(part * cols / parts, (part + 1) * cols / parts); });
  return out;
}

const std::vector<std::uint16_t>& texels_of(const attn::Trace& trace, int stage, const std::vector<ColourScale>& scales,
                                            const PreparedTexels* prepared, std::vector<std::uint16_t>& scratch) {
  if (const std::vector<std::uint16_t>* made = prepared ? prepared->find(stage) : nullptr) return *made;
  scratch = lut_texels(trace.stages.at(static_cast<size_t>(stage)), scales.at(static_cast<size_t>(stage)));
  return scratch;
}

PreparedTexels prepare_texels(const attn::Trace& trace, const RowRanges& ranges, const TexelRequest& request,
                              const std::atomic<bool>* cancel) {
  PreparedTexels p;
  p.colour = request.colour;
  p.scales = colour_scales(trace, request.colour, &ranges);
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

}  // namespace model
