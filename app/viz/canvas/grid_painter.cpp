// Grid drawing. Everything scales with the canvas zoom like a map; text is
// drawn with the rasterised size nearest to its on-screen size and skipped
// when it would be too small to read (cell numbers: as grid_numbers.hpp
// decides, for the whole grid). Only cells inside the clip are visited.
#include "canvas/grid_painter.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "attn/explain/explain.hpp"
#include "canvas/beyond_marks.hpp"
#include "canvas/grid_numbers.hpp"
#include "model_names.hpp"
#include "model/animation/step_caption.hpp"

namespace viz {
namespace {

// Text is never drawn smaller than kMinTextPx. Labels, formulas and captions
// whose natural size (at this zoom) is below kSkipTextPx are left out; titles
// stay while they fit above the cells, so an overview still names its grids.
constexpr float kMinTextPx = static_cast<float>(kMinReadablePx);
constexpr float kSkipTextPx = 6.0f;

ImVec2 to_im(Vec2d p) { return {static_cast<float>(p.x), static_cast<float>(p.y)}; }

// Text of a given pixel size in the closest rasterised font.
void text(const PaintContext& ctx, float px, ImVec2 pos, ImU32 colour, const std::string& s, float wrap = 0) {
  px = std::max(px, kMinTextPx);
  ctx.list->AddText(ctx.fonts.for_size(px), px, pos, colour, s.c_str(), s.c_str() + s.size(), wrap);
}

ImVec2 text_size(const PaintContext& ctx, float px, const std::string& s) {
  px = std::max(px, kMinTextPx);
  return ctx.fonts.for_size(px)->CalcTextSizeA(px, 1e9f, 0, s.c_str(), s.c_str() + s.size());
}

void hatch(ImDrawList* list, ImVec2 a, ImVec2 b, ImU32 colour) {
  // Lines x + y = d across a w x h rectangle (cells need not be square).
  const float w = b.x - a.x, h = b.y - a.y, step = std::max(4.0f, std::min(w, h) / 4);
  for (float d = step; d < w + h; d += step) {
    const ImVec2 p(a.x + std::min(d, w), a.y + std::max(0.0f, d - w));
    const ImVec2 q(a.x + std::max(0.0f, d - h), a.y + std::min(d, h));
    list->AddLine(p, q, colour, 1.0f);
  }
}

// Text turned a quarter to the left, reading upwards from `foot`: drawn
// flat, then its vertices rotated (ImGui 1.86 has no rotated text).
void text_upright(const PaintContext& ctx, float px, ImVec2 foot, ImU32 colour, const std::string& s) {
  // ImGui drops the glyphs that fall past the clip rectangle as it lays text
  // out, and flat, a label near the canvas's right edge ran past it: a
  // presented grid's labels lost their ends ("roma" for "romantic come…").
  // So the text is laid out with no clip, and the draw command holding it
  // gets the canvas's clip back once it stands upright.
  const ImVec2 clip_min = ctx.list->GetClipRectMin(), clip_max = ctx.list->GetClipRectMax();
  ctx.list->PushClipRect({-1e6f, -1e6f}, {1e6f, 1e6f}, false);
  const int first = ctx.list->VtxBuffer.Size;
  text(ctx, px, foot, colour, s);
  px = std::max(px, kMinTextPx);
  for (int i = first; i < ctx.list->VtxBuffer.Size; ++i) {
    ImVec2& p = ctx.list->VtxBuffer[i].pos;
    const float dx = p.x - foot.x, dy = p.y - foot.y;
    p = {foot.x + dy, foot.y - dx};
  }
  ctx.list->CmdBuffer.back().ClipRect = ImVec4(clip_min.x, clip_min.y, clip_max.x, clip_max.y);
  ctx.list->PopClipRect();
}

// Shortens text with "…" until it fits max_w pixels.
std::string fit_text(const PaintContext& ctx, float px, std::string s, float max_w) {
  if (text_size(ctx, px, s).x <= max_w) return s;
  while (!s.empty()) {
    // Drop one UTF-8 code point: its continuation bytes, then its lead byte.
    while (!s.empty() && (static_cast<unsigned char>(s.back()) & 0xC0) == 0x80) s.pop_back();
    if (!s.empty()) s.pop_back();
    if (text_size(ctx, px, s + "…").x <= max_w) return s + "…";
  }
  return s;
}

void paint_header(const PaintContext& ctx, const GridBox& g, const attn::Stage& s, float zoom) {
  const float z = zoom * ctx.text_scale;  // world text sizes grow in presentation mode
  const float title_px = std::min(16 * z, 40.0f), small_px = std::min(12.5f * z, 30.0f);
  // Zoomed far out the labels are gone, so the title may use their band too,
  // sitting right on top of the cells.
  const float band_px = static_cast<float>((g.cells.y0 - g.box.y0) * zoom);
  if (band_px < kMinTextPx + 1) return;
  const bool compact = small_px < kSkipTextPx;
  const float shown_px = std::max(title_px, kMinTextPx);
  Vec2d top = ctx.view.to_screen(Vec2d{g.box.x0, g.box.y0});
  if (compact) top.y = ctx.view.to_screen(Vec2d{g.box.x0, g.cells.y0}).y - shown_px - 1;
  // Titles may run a little into the gap; longer ones end in "…" (full text on hover).
  // Never past the canvas's edge either: a grid at the right end of a
  // presented step had its title cut there mid-word.
  const float room = std::min(static_cast<float>(g.header.width() * zoom), ctx.clip.z - static_cast<float>(top.x));
  const std::string title = fit_text(ctx, title_px, grid_title(s), room);
  text(ctx, title_px, to_im(top), to_imgui(ctx.palette.title), title);
  if (compact) return;
  if (const ImU32 accent = stage_accent(s, ctx.palette)) {
    const ImVec2 sz = text_size(ctx, title_px, s.title);
    const float y = static_cast<float>(top.y) + shown_px + 1;
    ctx.list->AddLine({static_cast<float>(top.x), y}, {static_cast<float>(top.x) + sz.x, y}, accent,
                      std::max(1.0f, 2.5f * static_cast<float>(zoom)));
  }
  text(ctx, small_px, {static_cast<float>(top.x), static_cast<float>(top.y) + shown_px * 1.3f}, to_imgui(ctx.palette.subtitle),
       fit_text(ctx, small_px, grid_subtitle(s, ctx.trace.dims.n_heads), room));
}

// Labels drawn every k-th row/column so they never overlap.
void paint_labels(const PaintContext& ctx, const GridBox& g, const attn::Stage& s, float zoom) {
  const float z = zoom * ctx.text_scale;
  // A shortened axis has narrow cells: its labels thin out instead of shrinking.
  const float px = std::clamp(static_cast<float>(std::min(12.5 * z, std::max(g.cell_w, g.cell_h) * zoom * 0.8)), kMinTextPx,
                              24.0f * ctx.text_scale);
  if (12.5 * z < kSkipTextPx) return;
  const float col_px = static_cast<float>(g.cell_w * zoom), row_px = static_cast<float>(g.cell_h * zoom);
  const ImU32 colour = to_imgui(ctx.palette.label);
  const int row_every = std::max(1, static_cast<int>(std::ceil(px * 1.2f / row_px)));
  const Rect cells = ctx.view.to_screen(g.cells);
  const int c_first = std::max(0, static_cast<int>((ctx.clip.x - cells.x0) / col_px));
  const int c_last = std::min(g.cols - 1, static_cast<int>((ctx.clip.z - cells.x0) / col_px));
  auto col_label = [&](int c) {
    return s.col_labels.size() > static_cast<size_t>(c) ? s.col_labels[static_cast<size_t>(c)] : std::to_string(c);
  };
  // Column labels never overlap. Index labels thin out to every k-th
  // column; token names keep every column (each names a key), drawn upright
  // when wider than their column, in the band the layout made tall enough.
  float widest = 0;
  if (c_last - c_first <= 128)
    for (int c = std::max(c_first, 0); c <= c_last; ++c) widest = std::max(widest, text_size(ctx, px, col_label(c)).x);
  else
    widest = text_size(ctx, px, col_label(c_last)).x;  // indices: the last is the widest
  if (rotate_column_labels(s.col_labels, widest, col_px) && px <= col_px * 1.15f) {
    const float band = static_cast<float>((g.cells.y0 - g.header.y1) * zoom) - 4;
    for (int c = std::max(c_first, 0); c <= c_last; ++c) {
      const std::string l = fit_text(ctx, px, col_label(c), band);
      text_upright(ctx, px, {static_cast<float>(cells.x0 + (c + 0.5) * col_px) - px / 2, static_cast<float>(cells.y0) - 3}, colour, l);
    }
  } else {
    const int col_every = std::max(1, static_cast<int>(std::ceil((widest + 4) / col_px)));
    const float max_w = col_every * col_px - 4;
    for (int c = c_first - c_first % col_every; c <= c_last; c += col_every) {
      const std::string l = fit_text(ctx, px, col_label(c), max_w);
      const ImVec2 sz = text_size(ctx, px, l);
      text(ctx, px, {static_cast<float>(cells.x0 + (c + 0.5) * col_px) - sz.x / 2, static_cast<float>(cells.y0) - px - 2}, colour, l);
    }
  }
  if (!g.row_labels) return;  // the grid level on its left names these rows
  const int r_first = std::max(0, static_cast<int>((ctx.clip.y - cells.y0) / row_px));
  const int r_last = std::min(g.rows - 1, static_cast<int>((ctx.clip.w - cells.y0) / row_px));
  for (int r = r_first - r_first % row_every; r <= r_last; r += row_every) {
    std::string l = s.row_labels.size() > static_cast<size_t>(r) ? s.row_labels[static_cast<size_t>(r)] : std::to_string(r);
    if (l.size() > 16) l = l.substr(0, 15) + "…";
    const ImVec2 sz = text_size(ctx, px, l);
    text(ctx, px, {static_cast<float>(cells.x0) - sz.x - 4, static_cast<float>(cells.y0 + (r + 0.5) * row_px) - px / 2}, colour, l);
  }
}

void paint_cells(const PaintContext& ctx, const GridBox& g, const attn::Stage& s, const ColourScale& scale, float zoom) {
  const Rect cells = ctx.view.to_screen(g.cells);
  // Cells may be narrower than tall (a shortened long axis).
  const float cell_w_px = static_cast<float>(g.cell_w * zoom), cell_h_px = static_cast<float>(g.cell_h * zoom);
  const float cell_px = std::min(cell_w_px, cell_h_px);
  const float gap_x = cell_w_px >= 6 ? 1.0f : 0.0f, gap_y = cell_h_px >= 6 ? 1.0f : 0.0f;
  const int c0 = std::max(0, static_cast<int>((ctx.clip.x - cells.x0) / cell_w_px));
  const int c1 = std::min(g.cols - 1, static_cast<int>((ctx.clip.z - cells.x0) / cell_w_px));
  const int r0 = std::max(0, static_cast<int>((ctx.clip.y - cells.y0) / cell_h_px));
  const int r1 = std::min(g.rows - 1, static_cast<int>((ctx.clip.w - cells.y0) / cell_h_px));
  for (int r = r0; r <= r1; ++r)
    for (int c = c0; c <= c1; ++c) {
      const ImVec2 a(static_cast<float>(cells.x0 + c * cell_w_px), static_cast<float>(cells.y0 + r * cell_h_px));
      const ImVec2 b(a.x + cell_w_px - gap_x, a.y + cell_h_px - gap_y);
      const float vis = cell_visibility(ctx.trace, ctx.timeline, ctx.frame, g.stage, r, c);
      const double v = displayed_value(ctx.trace, ctx.frame, g.stage, r, c);
      const bool masked = masked_look(s, r, c, v);
      ctx.list->AddRectFilled(a, b, cell_fill(scale, r, v, masked, vis, ctx.palette));
      if (masked && vis > 0.5f && cell_px >= 8) hatch(ctx.list, a, b, to_imgui(ctx.palette.hatch));
    }
}

// The number of every shown cell in view, over either path's cells, as the
// plan says: in every cell or in none (a blank among numbers reads as "not computed").
void paint_cell_numbers(const PaintContext& ctx, const GridBox& g, const attn::Stage& s, const ColourScale& scale,
                        const CellTextPlan& plan) {
  if (!plan.numbers) return;
  const Rect cells = ctx.view.to_screen(g.cells);
  const CellSize cell = screen_cell(g, ctx.view);
  const CellRange range = cells_in(g, ctx.view, {ctx.clip.x, ctx.clip.y, ctx.clip.z, ctx.clip.w});
  const TextWidth width = canvas_text_width(ctx.fonts);
  const float px = static_cast<float>(plan.px);
  const double gap = cell.w >= 6 ? 1.0 : 0.0;  // the grid lines between cells
  for (int r = range.r0; r < range.r1; ++r)
    for (int c = range.c0; c < range.c1; ++c) {
      if (cell_visibility(ctx.trace, ctx.timeline, ctx.frame, g.stage, r, c) < 0.5f) continue;
      const double v = displayed_value(ctx.trace, ctx.frame, g.stage, r, c);
      const std::string label = cell_label(v, plan, cell, width);
      const ImVec2 sz = text_size(ctx, px, label);
      const Rgba fg = text_colour_on(masked_look(s, r, c, v) ? ctx.palette.masked_fill : colour_of(scale, r, v));
      const ImVec2 at(static_cast<float>(cells.x0 + c * cell.w + (cell.w - gap - sz.x) / 2),
                      static_cast<float>(cells.y0 + r * cell.h + (cell.h - gap - sz.y) / 2));
      text(ctx, px, at, to_imgui(fg), label);
    }
}

void paint_texture(const PaintContext& ctx, const GridBox& g, const ColourScale& scale) {
  const float p = ctx.frame.stage_progress.empty() ? 1.0f : ctx.frame.stage_progress[static_cast<size_t>(g.stage)];
  GridQuad q;
  q.screen = ctx.view.to_screen(g.cells);
  q.rows = g.rows;
  q.cols = g.cols;
  q.values = ctx.textures.values(g.stage);
  q.visibility = ctx.textures.live(g.stage);
  q.lut = ctx.textures.lut(scale.map);
  q.alpha = q.visibility ? 1.0f : (p > 0 ? 1.0f : 0.0f);
  q.clip = ctx.clip;
  q.background = to_imgui(ctx.palette.empty_cell);
  q.masked = to_imgui(ctx.palette.masked_fill);
  q.hatch = to_imgui(ctx.palette.hatch);
  if (q.values) ctx.renderer.add(ctx.list, q);
}

// The legend (low end, colour bar split at zero when zero is inside it, high
// end, what the range covers, the masked look), then the caption, below the cells.
void paint_caption(const PaintContext& ctx, const GridBox& g, const attn::Stage& s, const ColourScale& scale, float zoom) {
  const float z = zoom * ctx.text_scale;
  const float px = std::clamp(12 * z, kMinTextPx, 24.0f * ctx.text_scale);
  if (12 * z < kSkipTextPx) return;
  const Vec2d at = ctx.view.to_screen(Vec2d{g.box.x0, g.cells.y1 + 6});
  const float bar_h = px * 0.66f;
  const Legend legend = legend_of(scale);
  const ImU32 ink = to_imgui(ctx.palette.legend);
  float x = static_cast<float>(at.x);
  const float y = static_cast<float>(at.y), top = y + (px - bar_h) / 2, bottom = y + (px + bar_h) / 2;
  auto word = [&](const std::string& w, float gap) {
    text(ctx, px, {x, y}, ink, w);
    x += text_size(ctx, px, w).x + gap;
  };
  // The legend stays within its grid's width: a narrow grid's legend ran
  // into its neighbour's ("0.250.25"). The bar shortens first, then the
  // middle "0" goes (the bar still runs through zero).
  const float room = static_cast<float>(g.box.width() * zoom);
  const float ends = text_size(ctx, px, legend.lo).x + 4 + text_size(ctx, px, legend.hi).x + 4;
  const float zero_w = text_size(ctx, px, legend.zero).x + 6;
  bool split = legend.zero_u > 0 && legend.zero_u < 1;
  if (split && ends + zero_w + px * 2 > room) split = false;
  const float bar_w = std::clamp(room - ends - (split ? zero_w : 0), px * 1.5f, px * 5);
  word(legend.lo, 4);
  const float zero_u = legend.u0 + (legend.u1 - legend.u0) * legend.zero_u;
  if (split) {
    paint_colour_bar(ctx.list, {x, top}, {x + bar_w / 2, bottom}, scale.map, legend.u0, zero_u);
    x += bar_w / 2 + 3;
    word(legend.zero, 3);
    paint_colour_bar(ctx.list, {x, top}, {x + bar_w / 2, bottom}, scale.map, zero_u, legend.u1);
    x += bar_w / 2 + 4;
  } else {
    paint_colour_bar(ctx.list, {x, top}, {x + bar_w, bottom}, scale.map, legend.u0, legend.u1);
    x += bar_w + 4;
  }
  word(legend.hi, 10);
  // The note and the masked key, each where it fits in the grid's width.
  const float right = static_cast<float>(at.x) + std::max(room, x - static_cast<float>(at.x));
  if (!legend.note.empty() && x + text_size(ctx, px, "(" + legend.note + ")").x <= right) word("(" + legend.note + ")", 10);
  if (s.blocked.size() != 0 && s.blocked.any()) {
    const ImVec2 a(x, y + (px - bar_h * 1.4f) / 2), b(x + bar_h * 1.4f, y + (px + bar_h * 1.4f) / 2);
    paint_masked(ctx.list, a, b, ctx.palette);
    if (b.x + 3 + text_size(ctx, px, "masked").x <= right) text(ctx, px, {b.x + 3, y}, ink, "masked");
  }
  if (!g.captioned) return;
  const float wrap = static_cast<float>(g.box.width() * zoom);
  text(ctx, px, {static_cast<float>(at.x), y + px + 4}, to_imgui(ctx.palette.caption), stage_caption(ctx.trace, s, ctx.scenario), wrap);
}

}  // namespace

void paint_colour_bar(ImDrawList* list, ImVec2 a, ImVec2 b, ColourmapId map, float u0, float u1) {
  constexpr int kSteps = 16;
  const Colourmap& m = colourmap(map);
  const float w = b.x - a.x;
  for (int i = 0; i < kSteps; ++i) {
    const float u = u0 + (u1 - u0) * (i + 0.5f) / kSteps;
    list->AddRectFilled({a.x + w * i / kSteps, a.y}, {a.x + w * (i + 1) / kSteps + 0.5f, b.y}, to_imgui(sample(m, u)));
  }
}

void paint_masked(ImDrawList* list, ImVec2 a, ImVec2 b, const ThemePalette& palette) {
  list->AddRectFilled(a, b, to_imgui(palette.masked_fill));
  hatch(list, a, b, to_imgui(palette.hatch));
}

ImU32 cell_fill(const ColourScale& scale, int row, double value, bool blocked, float visibility, const ThemePalette& palette) {
  const ImU32 target = to_imgui(blocked ? palette.masked_fill : colour_of(scale, row, value));
  if (visibility >= 1.0f) return target;
  const ImVec4 a = to_imvec4(palette.empty_cell);
  const ImVec4 b = ImGui::ColorConvertU32ToFloat4(target);
  const float f = std::clamp(visibility, 0.0f, 1.0f);
  return ImGui::ColorConvertFloat4ToU32({a.x + (b.x - a.x) * f, a.y + (b.y - a.y) * f, a.z + (b.z - a.z) * f, 1.0f});
}

ImU32 stage_accent(const attn::Stage& s, const ThemePalette& palette) {
  if (s.id == attn::StageKind::q || s.id == attn::StageKind::w_q) return to_imgui(palette.accent_q);
  if (s.id == attn::StageKind::k || s.id == attn::StageKind::w_k) return to_imgui(palette.accent_k);
  if (s.id == attn::StageKind::v || s.id == attn::StageKind::w_v) return to_imgui(palette.accent_v);
  return 0;
}

namespace {

// Title and labels of a grid in view; false (nothing drawn) when out of view.
bool paint_frame(const PaintContext& ctx, const GridBox& g) {
  const Rect box = ctx.view.to_screen(g.box);
  if (box.x1 < ctx.clip.x || box.x0 > ctx.clip.z || box.y1 < ctx.clip.y || box.y0 > ctx.clip.w) return false;
  const attn::Stage& s = ctx.trace.stages[static_cast<size_t>(g.stage)];
  paint_header(ctx, g, s, static_cast<float>(ctx.view.zoom));
  paint_labels(ctx, g, s, static_cast<float>(ctx.view.zoom));
  return true;
}

}  // namespace

void paint_grid(const PaintContext& ctx, const GridBox& g, const ColourScale& scale, const CellTextPlan& numbers) {
  if (!paint_frame(ctx, g)) return;
  const attn::Stage& s = ctx.trace.stages[static_cast<size_t>(g.stage)];
  const float zoom = static_cast<float>(ctx.view.zoom);
  const Rect cells = ctx.view.to_screen(g.cells);
  ctx.list->AddRect({static_cast<float>(cells.x0) - 1, static_cast<float>(cells.y0) - 1},
                    {static_cast<float>(cells.x1), static_cast<float>(cells.y1)}, to_imgui(ctx.palette.grid_frame));
  if (uses_texture(g)) paint_texture(ctx, g, scale);
  else paint_cells(ctx, g, s, scale, zoom);
  paint_beyond_marks(ctx, g, s, scale);
  paint_cell_numbers(ctx, g, s, scale, numbers);
  paint_caption(ctx, g, s, scale, zoom);
}

void paint_hidden_grid(const PaintContext& ctx, const GridBox& g, int asked_row) {
  if (!paint_frame(ctx, g)) return;
  const float zoom = static_cast<float>(ctx.view.zoom);
  // Cells keep their grid lines (so a cell can be clicked as an answer) but
  // no colour or number gives the answer away.
  const Rect cells = ctx.view.to_screen(g.cells);
  const ImVec2 a(static_cast<float>(cells.x0), static_cast<float>(cells.y0)), b(static_cast<float>(cells.x1), static_cast<float>(cells.y1));
  ctx.list->AddRectFilled(a, b, to_imgui(ctx.palette.hidden_cell));
  for (int c = 1; c < g.cols; ++c) {
    const float x = static_cast<float>(ctx.view.to_screen(Vec2d{g.col_x(c), 0}).x);
    ctx.list->AddLine({x, a.y}, {x, b.y}, to_imgui(ctx.palette.hidden_lines));
  }
  for (int r = 1; r < g.rows; ++r) {
    const float y = static_cast<float>(ctx.view.to_screen(Vec2d{0, g.row_y(r)}).y);
    ctx.list->AddLine({a.x, y}, {b.x, y}, to_imgui(ctx.palette.hidden_lines));
  }
  if (asked_row >= 0 && asked_row < g.rows) {
    // On the row the question asks about, as large as that row allows.
    const float top = static_cast<float>(ctx.view.to_screen(Vec2d{0, g.row_y(asked_row)}).y);
    const float row_h = static_cast<float>(g.cell_h * ctx.view.zoom);
    const float px = std::clamp(row_h * 0.9f, kMinTextPx, 64.0f);
    const ImVec2 q = text_size(ctx, px, "?");
    text(ctx, px, {(a.x + b.x - q.x) / 2, top + (row_h - q.y) / 2}, to_imgui(ctx.palette.hidden_mark), "?");
  } else {
    const float px = std::clamp(std::min(b.x - a.x, b.y - a.y) * 0.4f, kMinTextPx, 64.0f);
    const ImVec2 q = text_size(ctx, px, "?");
    text(ctx, px, {(a.x + b.x - q.x) / 2, (a.y + b.y - q.y) / 2}, to_imgui(ctx.palette.hidden_mark), "?");
  }
  const float small = std::clamp(12 * zoom * ctx.text_scale, kMinTextPx, 24.0f * ctx.text_scale);
  if (12 * zoom >= kSkipTextPx)
    text(ctx, small, {a.x, b.y + 6}, to_imgui(ctx.palette.caption), "hidden until you answer",
         std::max(small * 4, std::min(static_cast<float>(ctx.view.to_screen(g.box).x1), ctx.clip.z) - a.x));
}

void paint_region(const PaintContext& ctx, const GridBox& g, int r0, int r1, int c0, int c1, ImU32 colour,
                  float thickness, ImU32 fill) {
  r0 = std::clamp(r0, 0, g.rows), r1 = std::clamp(r1, 0, g.rows);
  c0 = std::clamp(c0, 0, g.cols), c1 = std::clamp(c1, 0, g.cols);
  if (r1 <= r0 || c1 <= c0) return;
  const Vec2d a = ctx.view.to_screen(Vec2d{g.col_x(c0), g.row_y(r0)});
  const Vec2d b = ctx.view.to_screen(Vec2d{g.col_x(c1), g.row_y(r1)});
  if (fill) ctx.list->AddRectFilled(to_im(a), to_im(b), fill);
  const float h = thickness / 2;
  ctx.list->AddRect({static_cast<float>(a.x) - h, static_cast<float>(a.y) - h},
                    {static_cast<float>(b.x) + h, static_cast<float>(b.y) + h}, colour, 0, 0, thickness);
}

AxisPins paint_pinned_labels(const PaintContext& ctx, const GridBox& g, const Rect& area) {
  const attn::Stage& s = ctx.trace.stages[static_cast<size_t>(g.stage)];
  const float zoom = static_cast<float>(ctx.view.zoom), z = zoom * ctx.text_scale;
  // The same text size as the labels in place (paint_labels).
  const float px = std::clamp(static_cast<float>(std::min(12.5 * z, std::max(g.cell_w, g.cell_h) * zoom * 0.8)), kMinTextPx,
                              24.0f * ctx.text_scale);
  if (12.5 * z < kSkipTextPx) return {};
  const float col_px = static_cast<float>(g.cell_w * zoom), row_px = static_cast<float>(g.cell_h * zoom);
  const Rect cells = ctx.view.to_screen(g.cells);
  auto row_label = [&](int r) {
    std::string l = s.row_labels.size() > static_cast<size_t>(r) ? s.row_labels[static_cast<size_t>(r)] : std::to_string(r);
    return l.size() > 16 ? l.substr(0, 15) + "…" : l;
  };
  auto col_label = [&](int c) {
    return s.col_labels.size() > static_cast<size_t>(c) ? s.col_labels[static_cast<size_t>(c)] : std::to_string(c);
  };
  const int r_first = std::clamp(static_cast<int>((area.y0 - cells.y0) / row_px), 0, g.rows - 1);
  const int r_last = std::clamp(static_cast<int>((area.y1 - cells.y0) / row_px), 0, g.rows - 1);
  const int c_first = std::clamp(static_cast<int>((area.x0 - cells.x0) / col_px), 0, g.cols - 1);
  const int c_last = std::clamp(static_cast<int>((area.x1 - cells.x0) / col_px), 0, g.cols - 1);
  float row_band = 0;
  for (int r = r_first; r <= r_last && r - r_first < 256; ++r) row_band = std::max(row_band, text_size(ctx, px, row_label(r)).x);
  row_band += 16;  // 8 px either side of the widest label
  const float col_band = px + 8;
  const AxisPins pins = axis_pins(cells, area, row_band, col_band);
  const ImU32 strip = to_imgui(ctx.palette.canvas), colour = to_imgui(ctx.palette.label);
  if (pins.rows) {
    const Rect& b = pins.row_strip;
    ctx.list->AddRectFilled({static_cast<float>(b.x0), static_cast<float>(b.y0)}, {static_cast<float>(b.x1), static_cast<float>(b.y1)}, strip);
    const int every = std::max(1, static_cast<int>(std::ceil(px * 1.2f / row_px)));
    for (int r = r_first - r_first % every; r <= r_last; r += every) {
      const float y = static_cast<float>(cells.y0 + (r + 0.5) * row_px);
      if (y - px / 2 < b.y0 || y + px / 2 > b.y1) continue;
      const std::string l = row_label(r);
      text(ctx, px, {static_cast<float>(b.x1) - text_size(ctx, px, l).x - 8, y - px / 2}, colour, l);
    }
  }
  if (pins.cols) {
    const Rect& b = pins.col_strip;
    ctx.list->AddRectFilled({static_cast<float>(b.x0), static_cast<float>(b.y0)}, {static_cast<float>(b.x1), static_cast<float>(b.y1)}, strip);
    float widest = 0;
    for (int c = c_first; c <= c_last && c - c_first < 256; ++c) widest = std::max(widest, text_size(ctx, px, col_label(c)).x);
    const int every = std::max(1, static_cast<int>(std::ceil((widest + 4) / col_px)));
    for (int c = c_first - c_first % every; c <= c_last; c += every) {
      const std::string l = fit_text(ctx, px, col_label(c), every * col_px - 4);
      const float w = text_size(ctx, px, l).x, x = static_cast<float>(cells.x0 + (c + 0.5) * col_px) - w / 2;
      if (x < b.x0 || x + w > b.x1) continue;
      text(ctx, px, {x, static_cast<float>(b.y0) + 3}, colour, l);
    }
  }
  return pins;
}

}  // namespace viz
