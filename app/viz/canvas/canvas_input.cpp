// Canvas mouse input. Hit testing is exact layout math (never pixel reads),
// so hovering works the same for a 4x4 grid and a 1024x1024 texture.
#include <algorithm>
#include <cmath>

#include "model_names.hpp"
#include "model/document/app_actions.hpp"
#include "model/lessons/lesson_actions.hpp"
#include "canvas/canvas_parts.hpp"
#include "model/document/scenario_edit.hpp"

namespace viz {
namespace {

std::optional<CellRef> cell_at(const CanvasData& d, const AppState& state, ImVec2 mouse) {
  const Vec2d world = state.view.transform.to_world(Vec2d{mouse.x, mouse.y});
  const std::optional<CellHit> hit = d.layout.hit(world);
  if (!hit) return std::nullopt;
  const attn::Stage& s = d.model.trace().stages[static_cast<size_t>(hit->stage)];
  return CellRef{s.ref(), hit->row, hit->col};
}

void start_gesture(const CanvasData& d, AppState& state, const CellRef& cell, bool alt) {
  const attn::Stage* s = d.model.trace().find(cell.stage);
  if (!s) return;
  if (alt && edit::editable_value(state.doc.scenario, cell.stage, cell.row, cell.col)) {
    const double* v = edit::editable_value(state.doc.scenario, cell.stage, cell.row, cell.col);
    const int index = d.model.trace().index_of(cell.stage);
    const ValueRange& range = d.scales[static_cast<size_t>(index)].range_of(cell.row);
    const double limit = std::max(std::abs(range.lo), std::abs(range.hi));
    state.gesture = {CanvasGesture::Kind::EditValue, cell, *v, std::max(0.002, limit / 150), true};
    state.edit_in_progress = true;
  } else if (state.paint_mask && maskable(*s)) {
    const bool blocked = edit::effective_blocked(state.doc.scenario, cell.row, cell.col);
    state.gesture = {CanvasGesture::Kind::PaintMask, cell, 0, 0, !blocked};
    state.edit_in_progress = true;
  }
}

void continue_gesture(AppState& state, const std::optional<CellRef>& under_mouse) {
  CanvasGesture& g = state.gesture;
  if (g.kind == CanvasGesture::Kind::EditValue) {
    double* v = edit::editable_value(state.doc.scenario, g.cell.stage, g.cell.row, g.cell.col);
    const double drag = -ImGui::GetMouseDragDelta(ImGuiMouseButton_Left, 0.0f).y;
    const double next = std::round((g.start_value + drag * g.per_pixel) * 1000) / 1000;
    if (v && *v != next) {
      actions::apply_edit(state, [&](attn::Scenario&) { *v = next; }, actions::Step::Live);
    }
  } else if (g.kind == CanvasGesture::Kind::PaintMask && under_mouse && under_mouse->stage.head == g.cell.stage.head &&
             under_mouse->stage.id == g.cell.stage.id) {
    if (edit::effective_blocked(state.doc.scenario, under_mouse->row, under_mouse->col) != g.paint_blocked) {
      actions::apply_edit(
          state, [&](attn::Scenario& sc) { edit::set_blocked(sc, under_mouse->row, under_mouse->col, g.paint_blocked); },
          actions::Step::Live);
    }
  }
}

const GridBox* title_at(const CanvasData& d, const AppState& state, ImVec2 mouse) {
  const Vec2d p = state.view.transform.to_world(Vec2d{mouse.x, mouse.y});
  for (const GridBox& g : d.layout.grids)
    if (g.header.contains(p)) return &g;
  return nullptr;
}

// Titles, formulas and labels are shortened to fit their grid: hovering
// them shows them in full (a column label names its key, a row label its query).
void header_tooltip(const CanvasData& d, const AppState& state, ImVec2 mouse) {
  const Vec2d p = state.view.transform.to_world(Vec2d{mouse.x, mouse.y});
  const attn::Trace& trace = d.model.trace();
  for (const GridBox& g : d.layout.grids) {
    const attn::Stage& s = trace.stages[static_cast<size_t>(g.stage)];
    const Rect column_labels{g.cells.x0, g.header.y1, g.cells.x1, g.cells.y0};
    const Rect row_labels{g.box.x0, g.cells.y0, g.cells.x0, g.cells.y1};
    if (column_labels.contains(p)) {
      const int c = std::clamp(static_cast<int>((p.x - g.cells.x0) / g.cell_w), 0, g.cols - 1);
      if (c < static_cast<int>(s.col_labels.size()))
        ImGui::SetTooltip("column %d: %s", c, s.col_labels[static_cast<size_t>(c)].c_str());
      return;
    }
    if (row_labels.contains(p)) {
      const int r = std::clamp(static_cast<int>((p.y - g.cells.y0) / g.cell_h), 0, g.rows - 1);
      if (r < static_cast<int>(s.row_labels.size())) ImGui::SetTooltip("row %d: %s", r, s.row_labels[static_cast<size_t>(r)].c_str());
      return;
    }
    const Rect header{g.box.x0, g.box.y0, g.box.x1, g.cells.y0};
    if (!header.contains(p)) continue;
    ImGui::SetTooltip("%s\n%s\n%s", grid_title(s).c_str(), grid_subtitle(s, trace.dims.n_heads).c_str(),
                      stage_caption(trace, s, d.model.scenario()).c_str());
    return;
  }
}

// A click on the grid an open "click a cell" question asks about is an answer.
bool answers_question(const CanvasData& d, const CellRef& cell) {
  if (!d.lessons.lesson || d.lessons.lesson->revealed()) return false;
  const auto& q = d.lessons.lesson->current().question;
  if (!q || q->kind != attn::io::LessonQuestion::Kind::Cell) return false;
  const attn::Stage* asked = lesson_stage(d.model.trace(), q->target);
  return asked && asked->ref() == cell.stage;
}

}  // namespace

bool maskable(const attn::Stage& s) {
  return s.id == attn::StageKind::scores || s.id == attn::StageKind::scaled || s.id == attn::StageKind::biased || s.id == attn::StageKind::masked || s.id == attn::StageKind::softmax ||
         s.id == attn::StageKind::weights;
}

void handle_canvas_input(ImVec2 pos, ImVec2 size, const Rect& area, const CanvasData& d, AppState& state) {
  ImGui::SetCursorScreenPos(pos);
  ImGui::InvisibleButton("##canvas_area", size,
                         ImGuiButtonFlags_MouseButtonLeft | ImGuiButtonFlags_MouseButtonRight |
                             ImGuiButtonFlags_MouseButtonMiddle);
  ImGui::SetItemAllowOverlap();  // the overlay buttons drawn later stay clickable
  const bool hovered = ImGui::IsItemHovered();
  const bool active = ImGui::IsItemActive();
  const ImGuiIO& io = ImGui::GetIO();
  ViewTransform& view = state.view.transform;

  if (active && (ImGui::IsMouseDragging(ImGuiMouseButton_Right) || ImGui::IsMouseDragging(ImGuiMouseButton_Middle)))
  {
    view.pan(io.MouseDelta.x, io.MouseDelta.y);
    state.view.user_moved = true;
  }
  if (hovered && io.MouseWheel != 0.0f) {
    view.zoom_at(Vec2d{io.MousePos.x, io.MousePos.y}, std::pow(1.18, static_cast<double>(io.MouseWheel)),
                 max_zoom_for(d.layout));
    state.view.user_moved = true;
  }

  const bool in_area = area.contains(Vec2d{io.MousePos.x, io.MousePos.y});
  const std::optional<CellRef> under = (hovered || active) && in_area ? cell_at(d, state, io.MousePos) : std::nullopt;
  state.hovered = under;
  if (hovered && in_area && !under && !active) header_tooltip(d, state, io.MousePos);
  // A double-click on a grid's title zooms to that stage and its inputs
  // (again, or Escape, goes back to the whole pipeline).
  if (hovered && in_area && !under && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left))
    if (const GridBox* g = title_at(d, state, io.MousePos)) {
      const attn::StageRef ref = d.model.trace().stages[static_cast<size_t>(g->stage)].ref();
      if (state.view.zoom_stage && *state.view.zoom_stage == ref) state.view.zoom_stage.reset();
      else state.view.zoom_stage = ref;
    }

  if (ImGui::IsItemActivated() && ImGui::IsMouseClicked(ImGuiMouseButton_Left) && under)
    start_gesture(d, state, *under, io.KeyAlt);
  if (active && ImGui::IsMouseDown(ImGuiMouseButton_Left)) continue_gesture(state, under);

  if (ImGui::IsItemDeactivated()) {
    const bool was_gesture = state.gesture.kind != CanvasGesture::Kind::None;
    if (was_gesture && state.edit_in_progress) actions::commit(state);
    state.gesture = {};
    // A plain left click (no drag, no gesture) pins or unpins the cell.
    const ImVec2 moved = ImGui::GetMouseDragDelta(ImGuiMouseButton_Left);  // 0 below the drag threshold
    const bool clicked = ImGui::IsMouseReleased(ImGuiMouseButton_Left) && moved.x == 0 && moved.y == 0;
    if (!was_gesture && clicked) {
      if (under && answers_question(d, *under)) actions::answer_lesson_cell(d.lessons, d.model.trace(), under->row, under->col);
      else if (under && !(state.pinned && *state.pinned == *under)) state.pinned = under;
      else state.pinned.reset();
    }
  }
}

}  // namespace viz
