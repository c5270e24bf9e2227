// Texture uploads for the large-grid path: the texels (viz/grid_texels.hpp)
// of each large grid on screen, once per trace and colour scales.
#include "canvas/grid_textures.hpp"

#include <algorithm>
#include <iterator>

namespace viz {
namespace {

void set_nearest(GLenum target) {
  glTexParameteri(target, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(target, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTexParameteri(target, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(target, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
}

// Writes over the texture's storage when it already has this size: with
// software GL a new 8 MB image is new pages to fault in, on the window's thread.
void upload_r16(GLuint texture, int width, int height, bool same_size, const std::uint16_t* data) {
  glBindTexture(GL_TEXTURE_2D, texture);
  set_nearest(GL_TEXTURE_2D);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 2);
  if (same_size) glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, width, height, GL_RED, GL_UNSIGNED_SHORT, data);
  else glTexImage2D(GL_TEXTURE_2D, 0, GL_R16, width, height, 0, GL_RED, GL_UNSIGNED_SHORT, data);
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

constexpr ColourmapId kMaps[] = {ColourmapId::RedBlue,  ColourmapId::BlueWhiteOrange, ColourmapId::HighContrast, ColourmapId::Viridis,
                                 ColourmapId::SingleHue, ColourmapId::Grayscale,     ColourmapId::Mask};

}  // namespace

GridTextures::GridTextures() {
  luts_.resize(std::size(kMaps));
  for (ColourmapId m : kMaps) {
    const std::vector<std::uint8_t> lut = lookup_table(colourmap(m), 256);
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
                        const PipelineLayout& layout, const std::vector<ColourScale>& scales,
                        const PreparedTexels* prepared) {
  if (values_.size() != trace.stages.size()) values_.resize(trace.stages.size());
  if (generation != generation_) {
    // Older entries stop being shown. The grids on screen write over their
    // storage; the others' is freed now (another head's grids, a closed zoom).
    generation_ = generation;
    std::vector<bool> shown(values_.size(), false);
    for (const GridBox& g : layout.grids)
      if (g.stage >= 0 && g.stage < static_cast<int>(shown.size())) shown[static_cast<size_t>(g.stage)] = true;
    for (size_t i = 0; i < values_.size(); ++i)
      if (!shown[i]) values_[i] = Entry{};
  }
  if (scales_revision != scales_revision_) {
    scales_revision_ = scales_revision;
    for (Entry& e : values_) e.generation = 0;  // same sizes: upload over the old textures
  }
  for (const GridBox& g : layout.grids) {
    if (!uses_texture(g) || g.stage < 0 || g.stage >= static_cast<int>(trace.stages.size())) continue;
    Entry& e = values_[static_cast<size_t>(g.stage)];
    if (e.texture && e.generation == generation_) continue;
    const attn::Stage& s = trace.stages[static_cast<size_t>(g.stage)];
    const bool made = prepared && prepared->find(g.stage);
    std::vector<std::uint16_t> scratch;
    const std::vector<std::uint16_t>& texels = texels_of(trace, g.stage, scales, prepared, scratch);
    const int rows = static_cast<int>(s.value.rows()), cols = static_cast<int>(s.value.cols());
    const bool same_size = e.texture && e.rows == rows && e.cols == cols;
    if (!e.texture) e.texture = gl::make_texture();
    // Texels are column-major: the texture is the grid transposed (width =
    // rows), and the shader reads cell (r, c) at (r, c).
    upload_r16(e.texture.id(), rows, cols, same_size, texels.data());
    e.generation = generation_;
    e.rows = rows;
    e.cols = cols;
    ++uploads_;
    if (made) ++prepared_uploads_;
  }
}

GLuint GridTextures::values(int stage) const {
  if (stage < 0 || stage >= static_cast<int>(values_.size())) return 0;
  const Entry& e = values_[static_cast<size_t>(stage)];
  return e.generation == generation_ ? e.texture.id() : 0;
}

GLuint GridTextures::lut(ColourmapId map) const {
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
