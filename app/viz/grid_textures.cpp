// Texture uploads for the large-grid path. Values are converted to colormap
// coordinates on the CPU with the same viz::coordinate() the per-cell path
// uses, then to the LUT entry the shader shows, so the shader only indexes
// the LUT and both paths agree. Baking the entry (rather than passing
// per-row ranges to the shader) keeps one mapping in one place; the cost is
// a re-upload when the colour options change. 16 bits a cell (entry + 1, 0 =
// masked) instead of a float: a 2048-token grid takes 8 MB, not 16.
#include "grid_textures.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <thread>

namespace viz {
namespace {

void set_nearest(GLenum target) {
  glTexParameteri(target, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(target, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTexParameteri(target, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(target, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
}

void upload_r16(GLuint texture, int cols, int rows, const std::uint16_t* data) {
  glBindTexture(GL_TEXTURE_2D, texture);
  set_nearest(GL_TEXTURE_2D);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 2);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_R16, cols, rows, 0, GL_RED, GL_UNSIGNED_SHORT, data);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glBindTexture(GL_TEXTURE_2D, 0);
}

void upload_r32f(GLuint texture, int cols, int rows, const float* data) {
  glBindTexture(GL_TEXTURE_2D, texture);
  set_nearest(GL_TEXTURE_2D);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_R32F, cols, rows, 0, GL_RED, GL_FLOAT, data);
  glBindTexture(GL_TEXTURE_2D, 0);
}

constexpr ColormapId kMaps[] = {ColormapId::RedBlue,  ColormapId::BlueWhiteOrange, ColormapId::HighContrast, ColormapId::Viridis,
                                 ColormapId::SingleHue, ColormapId::Grayscale,     ColormapId::Mask};

}  // namespace

std::uint16_t lut_texel(float u) {
  if (u < 0) return 0;
  return static_cast<std::uint16_t>(1 + static_cast<int>(std::clamp(u, 0.0f, 1.0f) * 255.0f + 0.5f));
}

std::vector<std::uint16_t> lut_texels(const attn::Stage& stage, const ColorScale& scale) {
  const int rows = static_cast<int>(stage.value.rows()), cols = static_cast<int>(stage.value.cols());
  std::vector<std::uint16_t> out(static_cast<size_t>(rows) * static_cast<size_t>(cols));
  // Eigen is column-major; GL wants row 0 first. Bands of columns keep both
  // the reads and the row-major writes in cache; a derived stage's band is
  // made a column at a time (StageValues::col: vectorised, the same numbers
  // as cell reads), never the whole n×n matrix. The two halves of the bands
  // go to two threads: a 2048-token grid is 4 M cells, and this runs on the
  // window's thread when a new trace arrives.
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
  if (static_cast<long long>(rows) * cols < (1 << 18) || bands < 2) {
    convert(0, bands);
  } else {
    std::thread helper(convert, bands / 2, bands);
    convert(0, bands / 2);
    helper.join();
  }
  return out;
}

GridTextures::GridTextures() {
  luts_.resize(std::size(kMaps));
  for (ColormapId m : kMaps) {
    const std::vector<std::uint8_t> lut = lookup_table(colormap(m), 256);
    gl::Texture& t = luts_[static_cast<size_t>(m)];
    t = gl::make_texture();
    glBindTexture(GL_TEXTURE_2D, t.id());
    set_nearest(GL_TEXTURE_2D);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 256, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, lut.data());
  }
  glBindTexture(GL_TEXTURE_2D, 0);
  live_ = gl::make_texture();
}

void GridTextures::sync(const attn::Trace& trace, std::uint64_t generation, std::uint64_t scales_revision,
                        const PipelineLayout& layout, const std::vector<ColorScale>& scales) {
  if (generation != generation_) {
    generation_ = generation;
    for (Entry& e : values_) e.texture.reset();  // free the old trace's GPU memory now
  }
  if (scales_revision != scales_revision_) {
    scales_revision_ = scales_revision;
    for (Entry& e : values_) e.generation = 0;  // same sizes: upload over the old textures
  }
  if (values_.size() != trace.stages.size()) values_.resize(trace.stages.size());
  for (const GridBox& g : layout.grids) {
    if (!uses_texture(g) || g.stage < 0 || g.stage >= static_cast<int>(trace.stages.size())) continue;
    Entry& e = values_[static_cast<size_t>(g.stage)];
    if (e.texture && e.generation == generation_) continue;
    const attn::Stage& s = trace.stages[static_cast<size_t>(g.stage)];
    const std::vector<std::uint16_t> texels = lut_texels(s, scales.at(static_cast<size_t>(g.stage)));
    if (!e.texture) e.texture = gl::make_texture();
    upload_r16(e.texture.id(), static_cast<int>(s.value.cols()), static_cast<int>(s.value.rows()), texels.data());
    e.generation = generation_;
    ++uploads_;
  }
}

GLuint GridTextures::values(int stage) const {
  if (stage < 0 || stage >= static_cast<int>(values_.size())) return 0;
  const Entry& e = values_[static_cast<size_t>(stage)];
  return e.generation == generation_ ? e.texture.id() : 0;
}

GLuint GridTextures::lut(ColormapId map) const {
  const size_t i = static_cast<size_t>(map);
  return i < luts_.size() ? luts_[i].id() : 0;
}

void GridTextures::update_live(const attn::Trace& trace, const Timeline& tl, const Frame& f,
                               const PipelineLayout& layout) {
  const int stage = f.active_stage;
  const GridBox* g = stage >= 0 ? layout.find(stage) : nullptr;
  if (!g || !uses_texture(*g) || f.finished) {
    live_stage_ = -1;
    return;
  }
  if (stage == live_stage_ && f.t == live_t_ && live_generation_ == generation_) return;
  const int rows = g->rows, cols = g->cols;
  scratch_.assign(static_cast<size_t>(rows) * static_cast<size_t>(cols), 0.0f);
  for (int r = 0; r < rows; ++r) {
    float* row = scratch_.data() + static_cast<size_t>(r) * static_cast<size_t>(cols);
    // Visibility is monotonic along a row (a sweep or a wave), so equal ends
    // mean the whole row shares one value: two evaluations instead of cols.
    const float first = cell_visibility(trace, tl, f, stage, r, 0);
    const float last = cell_visibility(trace, tl, f, stage, r, cols - 1);
    if (first == last) {
      std::fill(row, row + cols, first);
    } else {
      for (int c = 0; c < cols; ++c) row[c] = cell_visibility(trace, tl, f, stage, r, c);
    }
  }
  upload_r32f(live_.id(), cols, rows, scratch_.data());
  live_stage_ = stage;
  live_t_ = f.t;
  live_generation_ = generation_;
}

}  // namespace viz
