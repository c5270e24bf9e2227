// Canvas drawing: arrows first (behind), then every grid, then highlights
// (what the active step reads, what the inspected cell came from), then the
// overlays. Input handling lives in canvas_input.cpp, overlays in
// canvas_overlays.cpp.
#include "canvas/canvas_view.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "canvas/canvas_parts.hpp"
#include "model_names.hpp"
#include "model/lessons/lesson_actions.hpp"
#include "model/lessons/lesson_answers.hpp"
#include "canvas/grid_numbers.hpp"
#include "canvas/grid_painter.hpp"
#include "widgets/tiled_window.hpp"

namespace viz {
namespace {

ImVec2 im(Vec2d p) { return {static_cast<float>(p.x), static_cast<float>(p.y)}; }

float length(ImVec2 v) { return std::sqrt(v.x * v.x + v.y * v.y); }
ImVec2 towards(ImVec2 from, ImVec2 to, float distance) {
  const ImVec2 d(to.x - from.x, to.y - from.y);
  const float l = std::max(length(d), 1e-6f);
  return {from.x + d.x * distance / l, from.y + d.y * distance / l};
}

// Arrows leaving Q, K, V (and their weights) take the stage's accent, as in
// the articles, so where arrows cross the eye can still tell which is which.
ImU32 arrow_colour(const attn::Stage& source, const ThemePalette& palette) {
  const ImU32 accent = stage_accent(source, palette);
  if (!accent) return to_imgui(palette.arrow);
  const ImVec4 a = ImGui::ColorConvertU32ToFloat4(accent), grey = to_imvec4(palette.arrow);
  constexpr float kTint = 0.7f;  // a softer accent: arrows sit behind the grids
  return ImGui::ColorConvertFloat4ToU32({grey.x + (a.x - grey.x) * kTint, grey.y + (a.y - grey.y) * kTint,
                                         grey.z + (a.z - grey.z) * kTint, 1.0f});
}

// The layout's arrows (routed in the model, around every grid they do not
// connect), with rounded corners and the head at the target.
void paint_arrows(const PaintContext& ctx, const PipelineLayout& layout) {
  const float zoom = static_cast<float>(ctx.view.zoom);
  const float thickness = std::max(1.0f, 1.5f * zoom), head = std::max(5.0f, 7 * zoom), radius = 7 * zoom;
  std::vector<ImVec2> p;
  for (const ArrowRoute& a : layout.arrows) {
    if (a.points.size() < 2) continue;
    const ImU32 colour = arrow_colour(ctx.trace.stages[static_cast<size_t>(layout.grids[static_cast<size_t>(a.from)].stage)], ctx.palette);
    p.clear();
    for (const Vec2d& v : a.points) p.push_back(im(ctx.view.to_screen(v)));
    // The line stops at the base of the head so the tip stays sharp.
    const ImVec2 tip = p.back(), before = p[p.size() - 2];
    const float h = std::min(head, length({tip.x - before.x, tip.y - before.y}));
    p.back() = towards(tip, before, h);
    ctx.list->PathLineTo(p.front());
    for (size_t i = 1; i + 1 < p.size(); ++i) {
      const float r = std::min({radius, length({p[i].x - p[i - 1].x, p[i].y - p[i - 1].y}) / 2,
                                length({p[i + 1].x - p[i].x, p[i + 1].y - p[i].y}) / 2});
      ctx.list->PathLineTo(towards(p[i], p[i - 1], r));
      ctx.list->PathBezierQuadraticCurveTo(p[i], towards(p[i], p[i + 1], r));
    }
    ctx.list->PathLineTo(p.back());
    ctx.list->PathStroke(colour, 0, thickness);
    const ImVec2 base = p.back(), side(-(tip.y - base.y) / std::max(h, 1e-6f) * head / 2,
                                      (tip.x - base.x) / std::max(h, 1e-6f) * head / 2);
    ctx.list->AddTriangleFilled(tip, {base.x + side.x, base.y + side.y}, {base.x - side.x, base.y - side.y}, colour);
  }
}

void paint_sources(const PaintContext& ctx, const PipelineLayout& layout, const std::vector<attn::SourceRegion>& regions,
                   ImU32 outline, ImU32 fill) {
  for (const attn::SourceRegion& r : regions) {
    const GridBox* g = layout.find(ctx.trace.index_of(r.stage));
    if (g) paint_region(ctx, *g, r.row0, r.row1, r.col0, r.col1, outline, 2.5f, fill);
  }
}

// Cells a lesson step points at: a row, a column or one cell.
void paint_lesson_highlights(const PaintContext& ctx, const PipelineLayout& layout, const std::vector<attn::io::CellSpec>& cells) {
  for (const attn::io::CellSpec& c : cells) {
    const attn::Stage* s = lesson_stage(ctx.trace, c);
    const GridBox* g = s ? layout.find(ctx.trace.index_of(s->ref())) : nullptr;
    if (!g) continue;
    const int r0 = c.row >= 0 ? c.row : 0, r1 = c.row >= 0 ? c.row + 1 : g->rows;
    const int c0 = c.col >= 0 ? c.col : 0, c1 = c.col >= 0 ? c.col + 1 : g->cols;
    paint_region(ctx, *g, r0, r1, c0, c1, to_imgui(ctx.palette.lesson), 3.5f, to_imgui(ctx.palette.lesson_fill));
  }
}

// The spotlight dims the whole canvas, then paints again, undimmed, what
// the class should look at: the current cell (the one being computed, else
// the inspected one), its row and column, and the cells it came from.
void paint_spotlight(const PaintContext& ctx, const CanvasData& d, const std::vector<CellTextPlan>& plans, const Rect& area) {
  const attn::Explanation* e = d.active_cell ? d.active_cell : d.inspected;
  struct Lit {
    int stage, r0, r1, c0, c1;
  };
  std::vector<Lit> lit;
  if (e) {
    const int s = ctx.trace.index_of(e->stage);
    const attn::Stage& st = ctx.trace.stages[static_cast<size_t>(s)];
    lit.push_back({s, e->row, e->row + 1, 0, static_cast<int>(st.value.cols())});
    lit.push_back({s, 0, static_cast<int>(st.value.rows()), e->col, e->col + 1});
    for (const attn::SourceRegion& r : e->sources) lit.push_back({ctx.trace.index_of(r.stage), r.row0, r.row1, r.col0, r.col1});
  } else if (d.frame.active_stage >= 0 && d.frame.active_row >= 0) {
    const attn::Stage& st = ctx.trace.stages[static_cast<size_t>(d.frame.active_stage)];
    lit.push_back({d.frame.active_stage, d.frame.active_row, d.frame.active_row + 1, 0, static_cast<int>(st.value.cols())});
    for (const attn::SourceRegion& r : d.frame.highlights) lit.push_back({ctx.trace.index_of(r.stage), r.row0, r.row1, r.col0, r.col1});
  }
  ctx.list->AddRectFilled({static_cast<float>(area.x0), static_cast<float>(area.y0)}, {static_cast<float>(area.x1), static_cast<float>(area.y1)},
                          to_imgui(ctx.palette.spotlight_dim));
  for (const Lit& l : lit) {
    const GridBox* g = d.layout.find(l.stage);
    if (!g) continue;
    const Vec2d a = ctx.view.to_screen(Vec2d{g->col_x(std::max(l.c0, 0)), g->row_y(std::max(l.r0, 0))});
    const Vec2d b = ctx.view.to_screen(Vec2d{g->col_x(std::min(l.c1, g->cols)), g->row_y(std::min(l.r1, g->rows))});
    PaintContext lit_ctx = ctx;
    lit_ctx.clip = ImVec4(static_cast<float>(a.x), static_cast<float>(a.y), static_cast<float>(b.x), static_cast<float>(b.y));
    ctx.list->PushClipRect({lit_ctx.clip.x, lit_ctx.clip.y}, {lit_ctx.clip.z, lit_ctx.clip.w}, true);
    paint_grid(lit_ctx, *g, d.scales[static_cast<size_t>(g->stage)], plans[static_cast<size_t>(g - d.layout.grids.data())]);
    ctx.list->PopClipRect();
  }
}

// Presenting to a room: a red dot with a glow instead of the arrow cursor.
void paint_laser(const ThemePalette& palette) {
  ImGui::SetMouseCursor(ImGuiMouseCursor_None);
  ImDrawList* fg = ImGui::GetForegroundDrawList();
  const ImVec2 m = ImGui::GetIO().MousePos;
  const float r = ImGui::GetFontSize() * 0.45f;
  const Rgba c = palette.laser;
  fg->AddCircleFilled(m, r * 2.2f, IM_COL32(c.r, c.g, c.b, 50), 24);
  fg->AddCircleFilled(m, r * 1.4f, IM_COL32(c.r, c.g, c.b, 110), 24);
  fg->AddCircleFilled(m, r, to_imgui(c), 24);
}

void paint_cell_outline(const PaintContext& ctx, const PipelineLayout& layout, const attn::StageRef& stage, int row,
                        int col, ImU32 colour, float thickness) {
  const GridBox* g = layout.find(ctx.trace.index_of(stage));
  if (g) paint_region(ctx, *g, row, row + 1, col, col + 1, colour, thickness);
}

}  // namespace

NumberInputs number_inputs(const attn::Trace& trace, const Frame& frame, const FontSet& fonts, const AppState& state) {
  return {trace,
          frame,
          fonts,
          state.view.transform,
          state.view.show_values,
          text_scale(state.view),
          state.view.presentation ? kProjectorMinPx : kMinReadablePx};
}

namespace {

// More than a rounding difference: a grid added or removed, a band more,
// the status strip grown by an error line, the window resized.
bool changed_shape(const Rect& a, const Rect& b) {
  const double tolerance = 0.01 * std::max({1.0, a.width(), a.height()});
  return std::abs(a.x0 - b.x0) > tolerance || std::abs(a.y0 - b.y0) > tolerance || std::abs(a.x1 - b.x1) > tolerance ||
         std::abs(a.y1 - b.y1) > tolerance;
}

}  // namespace

Rect fit_target(const PipelineLayout& layout, const attn::Trace& trace, const ViewOptions& view) {
  if (view.slide_crop) return *view.slide_crop;  // a slide's part of a grid too big to show whole
  if (view.focus_stage.empty()) return layout.bounds;
  const int index = trace.resolve_named(view.focus_stage, view.focus_head, view.head);
  const GridBox* g = layout.find(index);
  if (!g) return layout.bounds;
  Rect r = g->box;
  // Inputs in another band would stretch the view over everything between.
  // An input not laid out (a "masked" that blocks nothing: shown_stages)
  // stands for its own inputs.
  auto add = [&](const attn::StageRef& in, auto& self, int depth) -> void {
    const int j = trace.index_of(in);
    if (j < 0) return;
    if (const GridBox* from = layout.find(j)) {
      if (from->band == g->band) r = united(r, from->box);
    } else if (depth < 1) {
      for (const attn::StageRef& up : trace.stages[static_cast<size_t>(j)].inputs) self(up, self, depth + 1);
    }
  };
  for (const attn::StageRef& in : trace.stages[static_cast<size_t>(index)].inputs) add(in, add, 0);
  return r;
}

void draw_canvas(ImVec2 pos, ImVec2 size, const CanvasData& d, GridRenderer& renderer, AppState& state) {
  ImGui::SetNextWindowPos(pos);
  ImGui::SetNextWindowSize(size);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, {0, 0});
  ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 0);
  const ThemePalette& pal = palette(state.view.colour.theme);
  ImGui::PushStyleColor(ImGuiCol_WindowBg, to_imgui(d.background ? *d.background : pal.canvas));
  begin_tiled_window("##canvas",
                     ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_NoScrollWithMouse |
                   ImGuiWindowFlags_NoNav);
  ImGui::PopStyleColor();
  ImGui::PopStyleVar(2);

  if (d.model.has_trace()) {
    const attn::Trace& trace = d.model.trace();
    const Rect area = grid_area(pos, size, d, state);
    state.view.area = area;
    const Rect target = fit_target(d.layout, trace, state.view);
    if (!state.view.user_moved && (changed_shape(area, state.view.fitted_area) || changed_shape(target, state.view.fitted_target)))
      state.view.fit_pending = true;
    if (state.view.fit_pending) {
      // A slide's crop zooms as far as its cells need (to 28 px and more).
      const double max_zoom = state.view.slide_crop ? std::max(state.view.fit_max_zoom, max_zoom_for(d.layout)) : state.view.fit_max_zoom;
      state.view.transform = fit(target, area, state.view.fit_margin, max_zoom);
      state.view.transform.zoom_at(state.view.transform.to_screen(Vec2d{(target.x0 + target.x1) / 2, (target.y0 + target.y1) / 2}),
                                   state.view.fit_zoom);
      state.view.fit_pending = false;
      state.view.user_moved = false;
      state.view.fitted_area = area;
      state.view.fitted_target = target;
    }
    // Go to cell: on the whole trace (a big scene's preview is laid out
    // differently), once the cell's grid is laid out, until a frame finds
    // the layout and the area as the last application left them.
    if (state.view.go_to && !d.model.preview() && !d.model.computing()) {
      ViewOptions::GoTo& go = *state.view.go_to;
      const int index = trace.index_of(go.cell.stage);
      if (const GridBox* g = index >= 0 ? d.layout.find(index) : nullptr) {
        const Rect world = g->cell_rect(std::clamp(go.cell.row, 0, g->rows - 1), std::clamp(go.cell.col, 0, g->cols - 1));
        if (go.applied && world == go.world && area == go.area) {
          state.view.go_to.reset();
        } else {
          state.view.transform = centred_on_cell(*g, go.cell.row, go.cell.col, area, 64, max_zoom_for(d.layout));
          state.view.user_moved = true;  // the user's view now: no refit takes it away
          go.applied = true;
          go.world = world;
          go.area = area;
        }
      }
    }
    handle_canvas_input(pos, size, area, d, state);

    ImDrawList* list = ImGui::GetWindowDrawList();
    const ImVec4 clip(static_cast<float>(area.x0), static_cast<float>(area.y0), static_cast<float>(area.x1), static_cast<float>(area.y1));
    list->PushClipRect({clip.x, clip.y}, {clip.z, clip.w}, true);
    const PaintContext ctx{list, trace, d.model.scenario(), d.model.timeline(), d.frame, state.view.transform, d.fonts, d.textures,
                           renderer, pal, clip, text_scale(state.view)};
    paint_arrows(ctx, d.layout);
    const NumberInputs numbers = number_inputs(trace, d.frame, d.fonts, state);
    const Rect& canvas = area;
    const std::vector<CellTextPlan> plans = plan_numbers(numbers, d.layout, canvas);
    for (size_t i = 0; i < d.layout.grids.size(); ++i) {
      const GridBox& g = d.layout.grids[i];
      if (std::find(d.hidden.begin(), d.hidden.end(), g.stage) != d.hidden.end())
        paint_hidden_grid(ctx, g, question_row(d.lessons, trace.stages[static_cast<size_t>(g.stage)]));
      else paint_grid(ctx, g, d.scales[static_cast<size_t>(g.stage)], plans[i]);
    }
    // Zoomed into a grid past its edges: its labels pinned to the view's edges.
    state.view.pinned_axes.clear();
    for (const GridBox& g : d.layout.grids) {
      const AxisPins pins = paint_pinned_labels(ctx, g, area);
      if (pins.rows || pins.cols) state.view.pinned_axes.push_back({g.stage, pins.rows, pins.cols});
    }
    paint_lesson_highlights(ctx, d.layout, d.lessons.highlights);
    if (state.view.spotlight) paint_spotlight(ctx, d, plans, area);

    // What the animation step reads (query row, key column, value rows...).
    const ImU32 step = to_imgui(pal.step), outline = to_imgui(pal.cell_outline);
    if (!d.frame.finished) paint_sources(ctx, d.layout, d.frame.highlights, step, to_imgui(pal.step_fill));
    if (d.frame.active_stage >= 0 && d.frame.active_row >= 0) {
      const attn::Stage& s = trace.stages[static_cast<size_t>(d.frame.active_stage)];
      const int c0 = d.frame.active_col >= 0 ? d.frame.active_col : 0;
      const int c1 = d.frame.active_col >= 0 ? c0 + 1 : static_cast<int>(s.value.cols());
      if (const GridBox* g = d.layout.find(d.frame.active_stage))
        paint_region(ctx, *g, d.frame.active_row, d.frame.active_row + 1, c0, c1, step, 3.0f);
    }
    if (d.active_cell) paint_current_term(ctx, d.layout, d.frame);
    // Where the inspected cell came from.
    if (d.inspected) {
      paint_sources(ctx, d.layout, d.inspected->sources, to_imgui(pal.source), to_imgui(pal.source_fill));
      paint_cell_outline(ctx, d.layout, d.inspected->stage, d.inspected->row, d.inspected->col, outline, 3.0f);
    }
    if (state.hovered && (!d.inspected || !(state.hovered->stage == d.inspected->stage) ||
                          state.hovered->row != d.inspected->row || state.hovered->col != d.inspected->col))
      paint_cell_outline(ctx, d.layout, state.hovered->stage, state.hovered->row, state.hovered->col, outline, 1.5f);
    list->PopClipRect();
    if (state.view.laser && ImGui::IsWindowHovered()) paint_laser(pal);
    paint_overlays(pos, size, d, state, numbers_hidden_by_zoom(numbers, d.layout, plans, canvas));
  } else {
    // A document that never computed: an empty canvas that says why; the
    // editor lists (and marks) the values behind it.
    const float pad = ImGui::GetFontSize() * 2;
    ImGui::SetCursorPos({pad, pad});
    if (d.model.computing()) {  // a big scene's first trace, in the background
      ImGui::TextColored(to_imvec4(pal.text), "Computing the trace of this scenario...");
      computing_line(d.model, state, std::min(size.x - 2 * pad, ImGui::GetFontSize() * 30), pal);
      ImGui::End();
      return;
    }
    if (!d.model.cancelled().empty()) {  // stopped before its first grids
      cancelled_line(d.model, state, pal);
      ImGui::End();
      return;
    }
    ImGui::PushTextWrapPos(size.x - pad);
    ImGui::TextColored(to_imvec4(pal.error), "This scenario cannot be computed.");
    ImGui::TextWrapped("%s", d.model.error().c_str());
    ImGui::Spacing();
    ImGui::TextWrapped("%s", d.model.offending().empty()
                                 ? "Change its values in the editor on the left, or open another scenario."
                                 : "The values behind it are marked red in the editor on the left: change them, or open another scenario.");
    ImGui::PopTextWrapPos();
  }
  ImGui::End();
}

}  // namespace viz
