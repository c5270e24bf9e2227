// Colours a whole grid from one value texture: u_values holds each cell's
// LUT entry + 1 as 16-bit unorm (chosen on the CPU by viz::lut_texel from the
// same colormap coordinate the per-cell path uses, so both paths agree), or 0
// for masked cells, which get the masked colour plus screen-space hatching. The 256-entry LUT comes from
// viz::lookup_table. u_visibility (optional) fades cells in during animation.
#version 330 core
in vec2 v_cell;
uniform sampler2D u_values;      // R16, the grid transposed: width = rows, height = cols (column-major, as Eigen stores it)
uniform sampler2D u_lut;         // RGBA8, 256 x 1
uniform sampler2D u_visibility;  // R32F, width = cols, height = rows, used when u_has_visibility
uniform bool u_has_visibility;
uniform float u_alpha;           // whole-grid visibility
uniform vec4 u_background;
uniform vec4 u_masked;
uniform vec4 u_hatch;
uniform vec2 u_grid;             // (cols, rows)
uniform vec2 u_cell_px;          // on-screen size of one cell (w, h), for the gaps
out vec4 frag_color;

void main() {
  ivec2 cell = ivec2(clamp(floor(v_cell), vec2(0.0), u_grid - vec2(1.0)));
  int texel = int(texelFetch(u_values, cell.yx, 0).r * 65535.0 + 0.5);
  vec4 color;
  if (texel == 0) {
    // Masked: its own look, not just a colour.
    float stripe = mod(gl_FragCoord.x + gl_FragCoord.y, 7.0);
    color = stripe < 1.6 ? u_hatch : u_masked;
  } else {
    color = texelFetch(u_lut, ivec2(texel - 1, 0), 0);
  }
  float visibility = u_alpha;
  if (u_has_visibility) visibility *= texelFetch(u_visibility, cell, 0).r;
  // Thin gaps between cells once they are big enough to tell apart, on each
  // axis on its own (a shortened long axis has narrow cells).
  vec2 f = fract(v_cell) * u_cell_px;
  if ((u_cell_px.x >= 6.0 && f.x < 1.0) || (u_cell_px.y >= 6.0 && f.y < 1.0)) visibility = 0.0;
  frag_color = mix(u_background, color, visibility);
}
