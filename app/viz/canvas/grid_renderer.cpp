// Large-grid rendering through the colourmap shader (shaders/grid.*, embedded
// at build time). The callback saves nothing: ImGui's renderer restores its
// own state afterwards via ImDrawCallback_ResetRenderState.
#include "canvas/grid_renderer.hpp"

#include <array>
#include <stdexcept>
#include <string>

#include "gl/embedded_assets.hpp"

namespace viz {
namespace {

void set_colour(GLint location, ImU32 c) {
  const ImVec4 v = ImGui::ColorConvertU32ToFloat4(c);
  glUniform4f(location, v.x, v.y, v.z, v.w);
}

}  // namespace

GridRenderer::GridRenderer() {
  const std::string vs(embedded::get("grid.vert")), fs(embedded::get("grid.frag"));
  if (vs.empty() || fs.empty()) throw std::runtime_error("grid shaders missing from the binary");
  program_ = gl::make_program(vs, fs);
  const GLuint p = program_.id();
  u_proj_ = glGetUniformLocation(p, "u_proj");
  u_values_ = glGetUniformLocation(p, "u_values");
  u_lut_ = glGetUniformLocation(p, "u_lut");
  u_visibility_ = glGetUniformLocation(p, "u_visibility");
  u_has_visibility_ = glGetUniformLocation(p, "u_has_visibility");
  u_alpha_ = glGetUniformLocation(p, "u_alpha");
  u_background_ = glGetUniformLocation(p, "u_background");
  u_masked_ = glGetUniformLocation(p, "u_masked");
  u_hatch_ = glGetUniformLocation(p, "u_hatch");
  u_grid_ = glGetUniformLocation(p, "u_grid");
  u_cell_px_ = glGetUniformLocation(p, "u_cell_px");

  vao_ = gl::make_vertex_array();
  vbo_ = gl::make_buffer();
  glBindVertexArray(vao_.id());
  glBindBuffer(GL_ARRAY_BUFFER, vbo_.id());
  glBufferData(GL_ARRAY_BUFFER, sizeof(float) * 16, nullptr, GL_DYNAMIC_DRAW);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 4 * sizeof(float), nullptr);
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, 4 * sizeof(float),
                        reinterpret_cast<const void*>(2 * sizeof(float)));
  glBindVertexArray(0);

  blank_ = gl::make_texture();
  glBindTexture(GL_TEXTURE_2D, blank_.id());
  const float one = 1.0f;
  glTexImage2D(GL_TEXTURE_2D, 0, GL_R32F, 1, 1, 0, GL_RED, GL_FLOAT, &one);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glBindTexture(GL_TEXTURE_2D, 0);
}

void GridRenderer::add(ImDrawList* list, const GridQuad& quad) {
  pending_.push_back({this, quad});
  list->AddCallback(&GridRenderer::draw_callback, &pending_.back());
  list->AddCallback(ImDrawCallback_ResetRenderState, nullptr);
}

void GridRenderer::draw_callback(const ImDrawList*, const ImDrawCmd* cmd) {
  const Pending* p = static_cast<const Pending*>(cmd->UserCallbackData);
  p->self->draw(p->quad);
}

void GridRenderer::draw(const GridQuad& q) const {
  const ImDrawData* dd = ImGui::GetDrawData();
  if (!dd) return;
  const ImVec2 pos = dd->DisplayPos, size = dd->DisplaySize, scale = dd->FramebufferScale;
  const float fb_h = size.y * scale.y;
  // Clip exactly like ImGui's renderer does for its own commands.
  const float cx0 = (q.clip.x - pos.x) * scale.x, cy0 = (q.clip.y - pos.y) * scale.y;
  const float cx1 = (q.clip.z - pos.x) * scale.x, cy1 = (q.clip.w - pos.y) * scale.y;
  if (cx1 <= cx0 || cy1 <= cy0) return;
  glEnable(GL_SCISSOR_TEST);
  glScissor(static_cast<GLint>(cx0), static_cast<GLint>(fb_h - cy1), static_cast<GLsizei>(cx1 - cx0),
            static_cast<GLsizei>(cy1 - cy0));

  const float l = pos.x, r = pos.x + size.x, t = pos.y, b = pos.y + size.y;
  const std::array<float, 16> proj = {2.0f / (r - l), 0, 0, 0, 0, 2.0f / (t - b), 0, 0, 0, 0, -1, 0,
                                      (r + l) / (l - r), (t + b) / (b - t), 0, 1};
  const float x0 = static_cast<float>(q.screen.x0), y0 = static_cast<float>(q.screen.y0);
  const float x1 = static_cast<float>(q.screen.x1), y1 = static_cast<float>(q.screen.y1);
  const float c = static_cast<float>(q.cols), rw = static_cast<float>(q.rows);
  const std::array<float, 16> verts = {x0, y0, 0, 0, x1, y0, c, 0, x0, y1, 0, rw, x1, y1, c, rw};

  glUseProgram(program_.id());
  glUniformMatrix4fv(u_proj_, 1, GL_FALSE, proj.data());
  glUniform1i(u_values_, 1);
  glUniform1i(u_lut_, 2);
  glUniform1i(u_visibility_, 3);
  glUniform1i(u_has_visibility_, q.visibility != 0);
  glUniform1f(u_alpha_, q.alpha);
  set_colour(u_background_, q.background);
  set_colour(u_masked_, q.masked);
  set_colour(u_hatch_, q.hatch);
  glUniform2f(u_grid_, c, rw);
  glUniform2f(u_cell_px_, static_cast<float>(q.screen.width() / std::max(1, q.cols)),
              static_cast<float>(q.screen.height() / std::max(1, q.rows)));
  glActiveTexture(GL_TEXTURE1);
  glBindTexture(GL_TEXTURE_2D, q.values);
  glActiveTexture(GL_TEXTURE2);
  glBindTexture(GL_TEXTURE_2D, q.lut);
  glActiveTexture(GL_TEXTURE3);
  glBindTexture(GL_TEXTURE_2D, q.visibility ? q.visibility : blank_.id());
  glActiveTexture(GL_TEXTURE0);

  glBindVertexArray(vao_.id());
  glBindBuffer(GL_ARRAY_BUFFER, vbo_.id());
  glBufferSubData(GL_ARRAY_BUFFER, 0, sizeof(float) * verts.size(), verts.data());
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  glBindVertexArray(0);
}

}  // namespace viz
