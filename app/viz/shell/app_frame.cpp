// One frame: controls that edit AppState first, then the derived data
// (recompute on a new revision, animation frame, layout, textures,
// explanations), then the views that only read it. Because the editor runs
// before the recompute, an edit shows in every grid in the same frame.
#include <algorithm>
#include <cmath>

#include "shell/app.hpp"
#include "model/classroom/class_feature.hpp"
#include "model/compare/compare_feature.hpp"
#include "attn/io/machine_limits.hpp"
#include "canvas/canvas_view.hpp"
#include "classroom/class_view.hpp"
#include "shell/capture.hpp"
#include "panels/inspector_panel.hpp"
#include "lessons/lesson_panel.hpp"
#include "model_names.hpp"
#include "model/lessons/lesson_actions.hpp"
#include "model/framing/shown_stages.hpp"
#include "model/framing/slide_focus.hpp"
#include "model/layout/side_panels.hpp"
#include "dialogs/dialogs.hpp"
#include "dialogs/go_to_dialog.hpp"
#include "widgets/notice_lines.hpp"
#include "export/export_dialog.hpp"
#include "explore/hull_panel.hpp"
#include "explore/why_scale_panel.hpp"
#include "panels/menu_bar.hpp"
#include "shell/shortcuts.hpp"
#include "panels/transport_bar.hpp"
#include "why/score_why_view.hpp"
#include "why/slide_why_panel.hpp"

namespace viz {

App::Panels App::panels() const {
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  if (export_canvas_only_) {  // a picture of a chosen size: the canvas is all of it
    Panels p;
    p.canvas_size = display;
    return p;
  }
  const float font = ImGui::GetFontSize();
  const float top = presenting_chrome() ? 0 : ImGui::GetFrameHeight();  // main menu bar
  // Side panels follow the window and the font size but leave the canvas at
  // least half the width (model/layout/side_panels.hpp).
  // Presenting, the inspector is narrower and the transport bar runs under
  // it too, so the canvas (and the large-font bar) get the room.
  const bool presenting = state_.view.presentation;
  // The Train view needs neither the scenario editor, the inspector nor the
  // animation's transport bar: the canvas gets their room (a lesson stays).
  const bool training = train_ui_.open || model_view_.ui.open;
  const bool left = (state_.view.show_editor && !training) || lessons_.lesson.has_value();
  // Presenting a lesson, its column is wider: the step is read from the
  // back of the room, and the grids it is about are few (shown_stages).
  // A slide is the step and its grids: the inspector is a tool for the desk.
  const bool slide = shows_slide(state_, lessons_);
  const bool right = state_.view.show_inspector && !training && !slide;
  const model::SidePanelWidths side = model::side_panel_widths(display.x, font, left, right);
  const float editor_w = !left        ? 0
                         : !presenting ? side.editor
                         : lessons_.lesson ? std::round(display.x * state_.view.lesson_column)
                                         : std::min(std::clamp(display.x * 0.2f, font * 17, font * 26), display.x * 0.3f);
  const float inspector_w = !right ? 0
                            : presenting ? std::min(std::clamp(display.x * 0.2f, font * 12, font * 16), display.x * 0.25f)
                                         : side.inspector;
  const ImGuiStyle& style = ImGui::GetStyle();
  // Presenting, the bar keeps one row (step, play, scrub): the room is the grids'.
  const float transport_h = training || slide ? 0 : (presenting ? 1 : 2) * ImGui::GetFrameHeightWithSpacing() + 2 * style.WindowPadding.y;
  Panels p;
  // A lesson takes the left column, with the editor under it when shown.
  const float left_h = display.y - top;
  const float lesson_h = !lessons_.lesson ? 0 : state_.view.show_editor && !training ? std::round(left_h * 0.6f) : left_h;
  p.lesson_pos = {0, top};
  p.lesson_size = {editor_w, lesson_h};
  p.editor_pos = {0, top + lesson_h};
  p.editor_size = {editor_w, left_h - lesson_h};
  p.inspector_pos = {display.x - inspector_w, top};
  p.inspector_size = {inspector_w, display.y - top - (presenting ? transport_h : 0)};
  p.transport_pos = {editor_w, display.y - transport_h};
  p.transport_size = {display.x - editor_w - (presenting ? 0 : inspector_w), transport_h};
  // A class session's corner takes a strip above the grids (its QR code
  // over the asked grid hid it from the class).
  const float class_strip = class_corner_height(session_.features().get<model::ClassFeature>());
  p.canvas_pos = {editor_w, top + class_strip};
  p.canvas_size = {std::max(50.0f, display.x - editor_w - inspector_w), std::max(50.0f, display.y - top - transport_h - class_strip)};
  // A slide about why a score has its value gives the strip under its grids
  // to that (the canvas is laid out in what is left).
  if (model::slide_explains_score(state_, lessons_) && !training) {
    const float strip = std::round(slide_why_lines(session_.inspected_split()) * ImGui::GetTextLineHeightWithSpacing() + 2 * style.WindowPadding.y);
    p.canvas_size.y -= strip;
    p.why_pos = {p.canvas_pos.x, p.canvas_pos.y + p.canvas_size.y};
    p.why_size = {p.canvas_size.x, strip};
  }
  return p;
}

// The model's half of the frame is the session's (model/session/session.hpp);
// what needs the window (its size, the text height, the GL textures) is here.
void App::update_derived(const Panels& p, double dt) {
  apply_train_options();
  apply_model_options();
  CanvasMetrics canvas;
  canvas.width = p.canvas_size.x;
  canvas.height = p.canvas_size.y;
  canvas.line_height = ImGui::GetTextLineHeightWithSpacing();
  canvas.only_stage = export_stage_;  // exporting one grid: it fills the canvas
  canvas.picture = export_w_ > 0;
  session_.update(dt, canvas);
  if (const std::string problem = session_.take_start_problem(); !problem.empty())
    std::fprintf(stderr, "attnviz: %s\n", problem.c_str());
  // The class session's join address, for a teacher starting it from a terminal.
  if (const std::string joined = session_.features().get<model::ClassFeature>().take_announcement(); !joined.empty()) {
    std::printf("attnviz: %s\n", joined.c_str());
    std::fflush(stdout);
  }
  model_textures_.sync(model_view_.session);  // once per result: the overview's atlases
  if (!model_.has_trace()) return;
  const attn::Trace& trace = model_.trace();
  textures_->sync(trace, model_.generation(), session_.scales_revision(), session_.layout(), session_.scales(),
                  session_.prepared_texels());
  session_.release_texels();  // uploaded; the grids not on screen are made when shown
  textures_->update_live(trace, model_.timeline(), session_.frame(), session_.layout());
}

void App::draw_views(const Panels& p, WidgetProbe* probe) {
  const CanvasData data{model_, session_.frame(), session_.layout(), session_.scales(), session_.inspected(),
                        session_.active_cell(), session_.caption(), fonts_, *textures_, state_,
                        lessons_, state_.history.can_undo(), session_.hidden(), export_background_, state_.opening, export_grids_only_,
                        options_.dump_layout.empty() ? nullptr : &probe_, session_.slide_note()};
  // The Model, Train and compare views take the canvas's place while open
  // (register_views.cpp); they cover the status panel, so its notices and
  // the changed-on-disk line come in a window of their own there.
  WidgetProbe* layout_probe = options_.dump_layout.empty() ? nullptr : &probe_;
  if (FeatureView* view = views_.canvas_taker()) {
    view->draw_in_canvas(CanvasPlace{p.canvas_pos, p.canvas_size, state_, model_, fonts_, layout_probe});
    draw_notice_window(p.canvas_pos, p.canvas_size, state_, layout_probe);
  } else {
    draw_canvas(p.canvas_pos, p.canvas_size, data, *renderer_, state_);
  }
  draw_start_page(p.canvas_pos, p.canvas_size, state_, lessons_, session_.lessons(), options_.dump_layout.empty() ? nullptr : &probe_);
  draw_lesson_check(p.canvas_pos, p.canvas_size, state_, lessons_, options_.dump_layout.empty() ? nullptr : &probe_);
  if (p.why_size.y > 0) draw_slide_why(p.why_pos, p.why_size, session_.inspected_split(), state_, probe);
  if (state_.view.show_inspector && p.inspector_size.x > 0)
    draw_inspector(p.inspector_pos, p.inspector_size, model_.has_trace() ? &model_.trace() : nullptr, session_.inspected(),
                   session_.inspected_dial(),
                   {session_.inspected_split(), session_.inspected_curves(), session_.inspected_sources(),
                    session_.inspected_sources_status()},
                   state_,
                   probe);
  // Floating windows over the canvas, drawn before any modal (see frame()).
  // A presented still step lays them out as its slide, as the handout does;
  // the tile stepper stays for the teacher, not in the handout. (The KV
  // cache's would push its last lines off a 1024x768 slide: Escape gives
  // the desk's panel.)
  const bool as_slide = shows_slide(state_, lessons_), steppers = !state_.view.slide;
  views_.draw_panels(PanelFrame{p.canvas_pos, p.canvas_size, probe, as_slide, steppers, state_, model_});
}

void App::frame(double dt) {
  apply_presentation();
  apply_ui_size();
  apply_theme_if_changed();
  platform_.begin_frame(export_w_, export_h_);
  renderer_->begin_frame();
  WidgetProbe* probe = options_.dump_layout.empty() ? nullptr : &probe_;
  // The dump names what this frame draws: a widget of an earlier frame (a
  // closed dialog, the window's controls before a slide) is not on screen.
  probe_.clear();
  const Panels p = panels();
  last_panels_ = p;
  if (probe) {  // --dump-layout: how the window is shared (tests keep the canvas at least half of it); a panel of no width is not drawn
    if (p.lesson_size.x > 0 || p.editor_size.x > 0)
      (*probe)["panel:left"] = {p.lesson_pos.x, p.lesson_pos.y, p.lesson_pos.x + p.lesson_size.x, p.editor_pos.y + p.editor_size.y};
    if (p.inspector_size.x > 0)
      (*probe)["panel:inspector"] = {p.inspector_pos.x, p.inspector_pos.y, p.inspector_pos.x + p.inspector_size.x,
                                     p.inspector_pos.y + p.inspector_size.y};
    (*probe)["panel:canvas"] = {p.canvas_pos.x, p.canvas_pos.y, p.canvas_pos.x + p.canvas_size.x, p.canvas_pos.y + p.canvas_size.y};
  }

  // 1. Input: everything that edits AppState.
  handle_shortcuts(state_, lessons_, train_ui_, session_.features().get<model::ClassFeature>(), model_.has_trace() ? &model_.trace() : nullptr, model_.timeline());
  if (!presenting_chrome() && !export_canvas_only_)
    draw_menu_bar(state_, export_ui_, session_.features().get<model::CompareFeature>().state(), lessons_, model_view_.ui, train_ui_,
                  model_.has_trace() ? model_.trace().dims.n_heads : 1, session_.lessons(), views_, probe);
  if (p.lesson_size.x > 0) draw_lesson_panel(p.lesson_pos, p.lesson_size, state_, lessons_, train_ui_, fonts_, model_.has_trace() ? &model_.trace() : nullptr, probe);
  if (state_.view.show_editor && p.editor_size.x > 0 && p.editor_size.y > 0)
    draw_editor(p.editor_pos, p.editor_size, state_, model_, probe);
  if (p.transport_size.y > 0) draw_transport(p.transport_pos, p.transport_size, model_, state_, probe);
  // 2. Derived data, recomputed only when its inputs changed.
  update_derived(p, dt);
  // 3. Views of const data.
  draw_views(p, probe);
  draw_help_window(state_);
  // 4. Modals last: ImGui 1.86 asserts when a window is first created after a
  // modal opened in the same frame (a start-up error would open one in the
  // very first frame). What a dialog answer changes shows from the next frame.
  draw_modals(state_, lessons_, probe);
  draw_go_to_dialog(state_, model_.has_trace() ? &model_.trace() : nullptr, probe);
  if (export_w_ == 0) draw_export_dialogs(state_, export_ui_, lessons_, model_.has_trace() ? &model_.trace() : nullptr, model_.timeline().total,
                                      options_.dump_layout.empty() ? nullptr : &probe_);
  platform_.end_frame(export_w_, export_h_);
  if (export_w_ > 0) return;  // an exported picture: no dumps, nothing remembered
  remember_settings();

  if (!options_.dump_state.empty()) {
    const nlohmann::json panels = panels_dump();
    std::string key = state_dump_key(state_, model_) + "/train " + train_dump().dump() + "/panels " + panels.dump();
    if (key != dumped_key_) {
      write_state_dump(options_.dump_state, state_, model_, train_dump(), panels);
      dumped_key_ = std::move(key);
    }
  }
  if (probe && model_.has_trace()) {
    const ImVec2 size = ImGui::GetIO().DisplaySize;
    write_dump(options_.dump_layout, layout_dump_now(static_cast<int>(size.x), static_cast<int>(size.y)));
  }
}

std::string App::layout_dump_now(int width, int height) {
  const Rect& canvas = state_.view.area;  // the grid area the painter used
  return layout_dump_text(session_.layout(), number_inputs(model_.trace(), session_.frame(), fonts_, state_), canvas, state_.view.pinned_axes, probe_,
                          width, height, textures_->uploads(), textures_->prepared_uploads(), &session_.scales());
}

}  // namespace viz
