// Grid quad for the large-grid path: positions are screen pixels (projected
// like ImGui's own vertices), v_cell runs over [0, cols] x [0, rows] so the
// fragment shader knows which cell it is in without any per-cell geometry.
#version 330 core
layout(location = 0) in vec2 a_pos;
layout(location = 1) in vec2 a_cell;
uniform mat4 u_proj;
out vec2 v_cell;
void main() {
  v_cell = a_cell;
  gl_Position = u_proj * vec4(a_pos, 0.0, 1.0);
}
