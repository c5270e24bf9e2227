// GL textures behind the large-grid path: one R16 texture of LUT entries
// per large stage, uploaded once per trace and colour scales
// (per-row ranges and log scales are baked into u here, so the shader only
// indexes a LUT), one LUT per colourmap, and a per-cell visibility texture for
// the one large stage being animated, refreshed only when the animation time moves.
#pragma once

#include <cstdint>
#include <vector>

#include "gl/gl_objects.hpp"
#include "model_names.hpp"
#include "model/animation/animation.hpp"
#include "model/colour/colourmap.hpp"
#include "model/colour/colour_scale.hpp"
#include "model/colour/grid_texels.hpp"
#include "model/layout/layout.hpp"

namespace viz {

class GridTextures {
 public:
  GridTextures();  // needs a current GL context

  // Uploads the value texture of every large grid in `layout` that is not
  // current for this trace generation and these scales (`scales_revision`
  // changes with the colour options); everything else is left untouched.
  // `scales` is parallel to trace.stages. Texels in `prepared` (made for
  // this trace and these scales, off the window's thread) are uploaded as
  // they are; the others are made here.
  void sync(const attn::Trace& trace, std::uint64_t generation, std::uint64_t scales_revision, const PipelineLayout& layout,
            const std::vector<ColourScale>& scales, const PreparedTexels* prepared = nullptr);
  // The value texture of a stage (0 when not uploaded).
  GLuint values(int stage) const;
  GLuint lut(ColourmapId map) const;

  // Refreshes per-cell visibility of the large grid being animated; returns
  // the texture to sample for `stage` (0 when the stage is not animating).
  void update_live(const attn::Trace& trace, const Timeline& timeline, const Frame& frame,
                   const PipelineLayout& layout);
  GLuint live(int stage) const { return stage == live_stage_ ? live_.id() : 0; }

  int uploads() const { return uploads_; }  // for the benchmark and tests
  int prepared_uploads() const { return prepared_uploads_; }  // of uploads(), made off the window's thread

 private:
  struct Entry {
    std::uint64_t generation = 0;  // of the trace the texture shows
    int rows = 0, cols = 0;
    gl::Texture texture;
  };
  std::vector<Entry> values_;
  std::vector<gl::Texture> luts_;  // indexed by ColourmapId
  gl::Texture live_;
  int live_stage_ = -1;
  double live_t_ = -1;
  std::uint64_t generation_ = 0, live_generation_ = 0, scales_revision_ = 0;
  int uploads_ = 0, prepared_uploads_ = 0;
  std::vector<float> scratch_;
};

}  // namespace viz
