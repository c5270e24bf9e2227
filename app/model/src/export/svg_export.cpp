// SVG writer for pipeline_svg (svg_export.hpp). SVG is text, so this is a
// plain string builder with XML escaping; sizes follow the canvas painter's
// world units (16-unit titles, 12.5-unit labels) so the picture matches.
#include "model/export/svg_export.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "attn/io/matrix_export.hpp"
#include "model/layout/cell_format.hpp"
#include "model/layout/cell_text_plan.hpp"
#include "model/layout/layout.hpp"

namespace model {
namespace {

std::string esc(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  std::string s = buf;
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s == "-0" ? "0" : s;
}

void text(std::string& out, double x, double y, double px, Rgba colour, const std::string& s, const char* anchor = "start",
          const char* extra = "") {
  out += "<text x=\"" + num(x) + "\" y=\"" + num(y) + "\" font-size=\"" + num(px) + "\" fill=\"" + svg_colour(colour) +
         "\" text-anchor=\"" + anchor + "\"" + extra + ">" + esc(s) + "</text>\n";
}

// Average glyph width of a sans-serif digit string, as a fraction of its size.
constexpr double kCharW = 0.6;

// Text width in the SVG's sans-serif face: code points times kCharW em, the
// estimate the plan below works with (as the canvas measures its font).
double svg_text_width(const std::string& text, double px) { return label_width(text, kCharW * px); }

// The column labels a rotated band holds at most (as the canvas draws them).
std::string shortened(const std::string& label, size_t chars) {
  size_t n = 0, i = 0;
  for (; i < label.size(); ++i)
    if ((static_cast<unsigned char>(label[i]) & 0xC0) != 0x80 && n++ == chars) break;
  return i < label.size() ? label.substr(0, i) + "…" : label;
}

void paint_grid(std::string& out, const attn::Stage& s, const GridBox& g, const ColourScale& scale, const ThemePalette& pal,
                int n_heads) {
  const attn::Mat m = attn::io::stage_matrix(s);
  out += "<g class=\"grid\" data-stage=\"" + esc(attn::to_string(s.id)) + "\" data-head=\"" + std::to_string(s.head) + "\">\n";
  text(out, g.box.x0, g.box.y0 + 15, 16, pal.title, grid_title(s), "start", " font-weight=\"bold\"");
  // Like the canvas, a formula longer than its header ends in "…" instead of running into the next title.
  std::string sub = grid_subtitle(s, n_heads);
  const size_t fits = static_cast<size_t>(std::max(4.0, g.header.width() / (12.5 * 0.55)));
  if (sub.size() > fits) {
    sub.resize(fits - 1);
    while (!sub.empty() && (static_cast<unsigned char>(sub.back()) & 0xC0) == 0x80) sub.pop_back();  // whole code points
    if (!sub.empty() && static_cast<unsigned char>(sub.back()) >= 0xC0) sub.pop_back();
    sub += "…";
  }
  text(out, g.box.x0, g.box.y0 + 32, 12.5, pal.subtitle, sub);
  const double label_px = std::min(12.5, std::max(g.cell_w, g.cell_h) * 0.8);
  for (int r = 0; r < g.rows; ++r)
    text(out, g.cells.x0 - 4, g.row_y(r) + g.cell_h / 2 + label_px * 0.35, label_px, pal.label,
         static_cast<size_t>(r) < s.row_labels.size() ? s.row_labels[static_cast<size_t>(r)] : std::to_string(r), "end");
  // Token names wider than their column are turned upright, as on the
  // canvas ("theanimaldidn't…" ran together).
  double widest = 0;
  for (const std::string& l : s.col_labels) widest = std::max(widest, label_width(l, kCharW * label_px));
  const bool upright = rotate_column_labels(s.col_labels, widest, g.cell_w);
  for (int c = 0; c < g.cols; ++c) {
    const std::string label = static_cast<size_t>(c) < s.col_labels.size() ? s.col_labels[static_cast<size_t>(c)] : std::to_string(c);
    const double x = g.col_x(c) + g.cell_w / 2;
    if (upright)
      text(out, x + label_px * 0.35, g.cells.y0 - 4, label_px, pal.label, shortened(label, LayoutOptions{}.rotated_label_chars), "start",
           (" transform=\"rotate(-90 " + num(x + label_px * 0.35) + " " + num(g.cells.y0 - 4) + ")\"").c_str());
    else
      text(out, x, g.cells.y0 - 4, label_px, pal.label, label, "middle");
  }
  // Numbers as the canvas prints them: one size for the grid, each value in
  // the most precise compact form that fits (cell_text_plan.hpp), so 0.004
  // reads ".004" where the SVG left it blank.
  std::vector<double> values;
  values.reserve(static_cast<size_t>(m.size()));
  for (int r = 0; r < g.rows; ++r)
    for (int c = 0; c < g.cols; ++c)
      if (!s.is_blocked(r, c)) values.push_back(m(r, c));
  const CellSize cell_size{g.cell_w, g.cell_h};
  const CellTextPlan plan = plan_cell_text(values, cell_size, 1.0, svg_text_width);
  for (int r = 0; r < g.rows; ++r)
    for (int c = 0; c < g.cols; ++c) {
      const Rect cell = g.cell_rect(r, c);
      const bool masked = s.is_blocked(r, c);
      const Rgba fill = colour_of(scale, r, m(r, c));
      out += "<rect class=\"cell\" data-row=\"" + std::to_string(r) + "\" data-col=\"" + std::to_string(c) + "\" x=\"" +
             num(cell.x0) + "\" y=\"" + num(cell.y0) + "\" width=\"" + num(cell.width()) + "\" height=\"" + num(cell.height()) +
             "\" fill=\"" + (masked ? std::string("url(#masked)") : svg_colour(fill)) + "\" stroke=\"" +
             svg_colour(pal.grid_frame) + "\" stroke-width=\"0.5\"/>\n";
      const std::string t = masked ? std::string() : cell_label(m(r, c), plan, cell_size, svg_text_width);
      if (!t.empty())
        text(out, cell.x0 + cell.width() / 2, cell.y0 + cell.height() / 2 + plan.px * 0.35, plan.px, text_colour_on(fill), t, "middle");
    }
  // The legend: the colour bar with its ends (and zero), under the cells.
  if (g.box.y1 - g.cells.y1 >= 20) {
    const Legend lg = legend_of(scale);
    const double y = g.cells.y1 + 6, w = std::min(g.box.width(), 120.0);
    const std::string id = "legend-" + esc(attn::to_string(s.id)) + "-" + std::to_string(s.head + 1);
    out += "<linearGradient id=\"" + id + "\">";
    for (int i = 0; i <= 8; ++i) {
      const float u = lg.u0 + (lg.u1 - lg.u0) * static_cast<float>(i) / 8;
      out += "<stop offset=\"" + num(i / 8.0) + "\" stop-color=\"" + svg_colour(sample(colourmap(scale.map), u)) + "\"/>";
    }
    out += "</linearGradient>\n<rect class=\"legend\" x=\"" + num(g.box.x0) + "\" y=\"" + num(y) + "\" width=\"" + num(w) +
           "\" height=\"6\" fill=\"url(#" + id + ")\"/>\n";
    text(out, g.box.x0, y + 16, 10, pal.legend, lg.lo);
    text(out, g.box.x0 + w, y + 16, 10, pal.legend, lg.hi, "end");
    if (!lg.zero.empty() && lg.zero_u >= 0) text(out, g.box.x0 + w * lg.zero_u, y + 16, 10, pal.legend, lg.zero, "middle");
  }
  out += "</g>\n";
}

}  // namespace

std::string svg_colour(Rgba c) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", c.r, c.g, c.b);
  return buf;
}

std::string pipeline_svg(const attn::Trace& trace, const PipelineLayout& layout, const std::vector<ColourScale>& scales,
                         const SvgOptions& o) {
  const ThemePalette& pal = palette(o.theme);
  const GridBox* only = o.stage >= 0 ? layout.find(o.stage) : nullptr;
  Rect area = only ? only->box : layout.bounds;
  area = {area.x0 - o.margin, area.y0 - o.margin, area.x1 + o.margin, area.y1 + o.margin};
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
                    num(area.width() * o.scale) + "\" height=\"" + num(area.height() * o.scale) + "\" viewBox=\"" +
                    num(area.x0) + " " + num(area.y0) + " " + num(area.width()) + " " + num(area.height()) +
                    "\" font-family=\"DejaVu Sans, Verdana, sans-serif\">\n";
  // The masked look of the canvas: a fill plus diagonal lines.
  out += "<defs><pattern id=\"masked\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
         "patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"" + svg_colour(pal.masked_fill) +
         "\"/><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"" + svg_colour(pal.hatch) + "\" stroke-width=\"1.5\"/></pattern>"
         "<marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto\">"
         "<path d=\"M0,0 L10,5 L0,10 z\" fill=\"" + svg_colour(pal.arrow) + "\"/></marker></defs>\n";
  if (!o.transparent)
    out += "<rect class=\"background\" x=\"" + num(area.x0) + "\" y=\"" + num(area.y0) + "\" width=\"" + num(area.width()) +
           "\" height=\"" + num(area.height()) + "\" fill=\"" + svg_colour(pal.canvas) + "\"/>\n";
  if (!only)
    for (const ArrowRoute& a : layout.arrows) {
      std::string points;
      for (const Vec2d& p : a.points) points += num(p.x) + "," + num(p.y) + " ";
      out += "<polyline class=\"arrow\" points=\"" + points + "\" fill=\"none\" stroke=\"" + svg_colour(pal.arrow) +
             "\" stroke-width=\"1.5\" marker-end=\"url(#arrow)\"/>\n";
    }
  for (const GridBox& g : layout.grids)
    if (!only || &g == only)
      paint_grid(out, trace.stages[static_cast<size_t>(g.stage)], g, scales[static_cast<size_t>(g.stage)], pal, trace.dims.n_heads);
  return out + "</svg>\n";
}

}  // namespace model
