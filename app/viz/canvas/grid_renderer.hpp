// The large-grid path: draws a whole grid as one quad whose fragment shader
// looks each cell up in a value texture and colours it through a 256-entry
// LUT. It runs inside ImGui's draw list as a callback, so it sits in the right
// z-order and clip rect among the labels and highlights drawn around it.
#pragma once

#include <deque>

#include <imgui.h>

#include "gl/gl_objects.hpp"
#include "model_names.hpp"
#include "model/layout/layout.hpp"

namespace viz {

// One grid to draw this frame. Textures are owned by GridTextures.
struct GridQuad {
  Rect screen;              // where the cells go, in screen pixels
  int rows = 0, cols = 0;
  GLuint values = 0;        // R16 texels: 1 + LUT entry, 0 = masked (grid_textures.hpp)
  GLuint visibility = 0;    // optional R32F per-cell visibility, 0 = none
  GLuint lut = 0;           // RGBA8 256 x 1
  float alpha = 1;          // whole-grid visibility
  ImVec4 clip;              // screen clip rectangle
  // The theme's colours for a cell not shown yet and for the masked look;
  // the per-cell path uses the same ones, so both paths look identical.
  ImU32 background = 0, masked = 0, hatch = 0;
};

class GridRenderer {
 public:
  GridRenderer();  // needs a current GL 3.3 context; throws on shader errors

  // Clears last frame's callback data; call once per frame before drawing.
  void begin_frame() { pending_.clear(); }
  // Adds the grid to `list` as a draw callback (then restores ImGui's state).
  void add(ImDrawList* list, const GridQuad& quad);

 private:
  struct Pending {
    GridRenderer* self;
    GridQuad quad;
  };
  static void draw_callback(const ImDrawList* list, const ImDrawCmd* cmd);
  void draw(const GridQuad& quad) const;

  gl::Program program_;
  gl::VertexArray vao_;
  gl::Buffer vbo_;
  gl::Texture blank_;  // 1x1 bound when there is no visibility texture
  GLint u_proj_ = -1, u_values_ = -1, u_lut_ = -1, u_visibility_ = -1, u_has_visibility_ = -1, u_alpha_ = -1,
        u_background_ = -1, u_masked_ = -1, u_hatch_ = -1, u_grid_ = -1, u_cell_px_ = -1;
  std::deque<Pending> pending_;  // stable addresses for the callbacks' user data
};

}  // namespace viz
