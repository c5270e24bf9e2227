// One frame: controls that edit AppState first, then the derived data
// (recompute on a new revision, animation frame, layout, textures,
// explanations), then the views that only read it. Because the editor runs
// before the recompute, an edit shows in every grid in the same frame.
#include <algorithm>
#include <cmath>

#include "shell/app.hpp"
#include "compare/compare_view.hpp"
#include "train/train_view.hpp"
#include "attn/io/machine_limits.hpp"
#include "canvas/canvas_view.hpp"
#include "gl/capture.hpp"
#include "panels/inspector_panel.hpp"
#include "lessons/lesson_panel.hpp"
#include "model_names.hpp"
#include "model/lessons/lesson_actions.hpp"
#include "model/layout/shown_stages.hpp"
#include "dialogs/dialogs.hpp"
#include "dialogs/go_to_dialog.hpp"
#include "widgets/notice_lines.hpp"
#include "export/export_dialog.hpp"
#include "explore/hull_panel.hpp"
#include "explore/why_scale_panel.hpp"
#include "panels/menu_bar.hpp"
#include "shell/shortcuts.hpp"
#include "panels/transport_bar.hpp"

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
  // Side panels follow the font size but never take more than 30% each.
  // Presenting, the inspector is narrower and the transport bar runs under
  // it too, so the canvas (and the large-font bar) get the room.
  const bool presenting = state_.view.presentation;
  // The Train view needs neither the scenario editor, the inspector nor the
  // animation's transport bar: the canvas gets their room (a lesson stays).
  const bool training = state_.train.open;
  const bool left = (state_.view.show_editor && !training) || state_.lesson.has_value();
  // Presenting a lesson, its column is wider: the step is read from the
  // back of the room, and the grids it is about are few (shown_stages).
  const float editor_w = !left ? 0
                         : presenting && state_.lesson ? std::round(display.x * 0.36f)
                                                       : std::min(std::clamp(display.x * 0.2f, font * 17, font * 26), display.x * 0.3f);
  const float inspector_w =
      !state_.view.show_inspector || training ? 0
      : presenting ? std::min(std::clamp(display.x * 0.2f, font * 12, font * 16), display.x * 0.25f)
                   : std::min(std::clamp(display.x * 0.22f, font * 18, font * 28), display.x * 0.3f);
  const ImGuiStyle& style = ImGui::GetStyle();
  // Presenting, the bar keeps one row (step, play, scrub): the room is the grids'.
  const float transport_h = training || state_.view.slide ? 0 : (presenting ? 1 : 2) * ImGui::GetFrameHeightWithSpacing() + 2 * style.WindowPadding.y;
  Panels p;
  // A lesson takes the left column, with the editor under it when shown.
  const float left_h = display.y - top;
  const float lesson_h = !state_.lesson ? 0 : state_.view.show_editor && !training ? std::round(left_h * 0.6f) : left_h;
  p.lesson_pos = {0, top};
  p.lesson_size = {editor_w, lesson_h};
  p.editor_pos = {0, top + lesson_h};
  p.editor_size = {editor_w, left_h - lesson_h};
  p.inspector_pos = {display.x - inspector_w, top};
  p.inspector_size = {inspector_w, display.y - top - (presenting ? transport_h : 0)};
  p.transport_pos = {editor_w, display.y - transport_h};
  p.transport_size = {display.x - editor_w - (presenting ? 0 : inspector_w), transport_h};
  p.canvas_pos = {editor_w, top};
  p.canvas_size = {std::max(50.0f, display.x - editor_w - inspector_w), std::max(50.0f, display.y - top - transport_h)};
  return p;
}

void App::update_derived(const Panels& p, double dt) {
  const double old_total = last_total_;
  const bool at_end = old_total >= 0 && state_.clock.t >= old_total - 1e-9;
  // What can replace the document (a file read, a trained layer opened)
  // goes before the model hears of it, so no frame shows the new view over
  // the old trace without marking it stale.
  update_opening();
  watch_disk();
  update_lesson_opening();
  update_train();
  if (state_.cancel_compute) model_.cancel();
  if (state_.compute_again) model_.compute_again();
  state_.cancel_compute = state_.compute_again = false;
  model_.set_texel_request(TexelRequest{state_.view.colour, state_.view.head});
  model_.update(state_.doc.scenario, state_.document, state_.revision, TimelineKey{state_.granularity, state_.view.head},
                attn::io::machine_limits());
  update_compare();
  if (state_.view.show_why_scale) why_scale_.update();
  if (!model_.has_trace()) return;
  const attn::Trace& trace = model_.trace();
  if (state_.view.show_hull) hull_.update(trace, model_.generation(), state_.view.head);
  const Timeline& tl = model_.timeline();
  apply_start_options();
  if (tl.total != old_total) {
    // A new trace or timeline: stay at the end if we were there, else clamp.
    state_.clock.t = at_end ? tl.total : std::min(state_.clock.t, tl.total);
    last_total_ = tl.total;
  }
  apply_view_request(state_, trace, tl);  // a lesson step's moment or range
  state_.clock.tick(tl, dt);
  // Stages an open lesson question keeps hidden, and no explanation of them.
  hidden_.clear();
  if (state_.lesson && !state_.lesson->revealed() && state_.lesson->current().question)
    hidden_ = hidden_stages(*state_.lesson->current().question, trace);

  const std::uint64_t generation = model_.generation();
  // Texels made with a background result, for the colours on screen: its
  // scales are the ones color_scales() would make here.
  const PreparedTexels* prepared = model_.prepared_texels();
  if (prepared && !(prepared->colour == state_.view.colour)) prepared = nullptr;
  if (scales_generation_ != generation || scales_colour_ != state_.view.colour) {
    scales_ = prepared ? prepared->scales : color_scales(trace, state_.view.colour, &model_.row_ranges());
    scales_generation_ = generation;
    scales_colour_ = state_.view.colour;
    ++scales_revision_;  // large grids re-upload their colormap coordinates
  }
  frame_ = evaluate(trace, tl, state_.clock.t);
  // The room grids had last frame (the strips above and below hold the
  // caption and hints); about five text lines less than the canvas at first.
  const double room = state_.view.area.height() > 0 ? state_.view.area.height()
                                                     : p.canvas_size.y - 5.5 * ImGui::GetTextLineHeightWithSpacing();
  // A lesson step's own grids, a zoom, or (presenting) the stage being
  // computed and its inputs: one rule, the model's (shown_stages.hpp).
  std::vector<int> only;
  if (export_stage_ >= 0) only = {export_stage_};  // exporting one grid: it fills the canvas
  else only = shown_stages(state_, trace, tl, frame_);
  const LayoutKey key{model_.layout_generation(), state_.view.head, static_cast<int>(p.canvas_size.x), static_cast<int>(room),
                      state_.view.presentation, only};
  if (!(key == layout_key_)) {
    LayoutOptions lo;
    lo.head = state_.view.head;
    lo.only = only;
    lo.cell = auto_cell_size(trace);
    lo = scaled_text(lo, text_scale(state_.view));
    layout_ = layout_for_view(trace, lo, p.canvas_size.x, std::max(50.0, room));
    // Another head or another focus is another picture: fit it even after
    // panning. Other changes of shape refit in the canvas unless the user
    // moved the view.
    if (key.head != layout_key_.head || key.only != layout_key_.only) state_.view.fit_pending = true;
    layout_key_ = key;
  }
  textures_->sync(trace, generation, scales_revision_, layout_, scales_, prepared);
  model_.release_texels();  // uploaded; the grids not on screen are made when shown
  textures_->update_live(trace, tl, frame_, layout_);

  const std::optional<CellRef>& cell = state_.inspected();
  const bool cell_hidden = cell && std::find(hidden_.begin(), hidden_.end(), trace.index_of(cell->stage)) != hidden_.end();
  inspected_ = cell && !cell_hidden ? inspect_cache_.get(trace, model_.scenario(), generation, cell->stage, cell->row, cell->col)
                                    : nullptr;
  active_cell_ = nullptr;
  if (frame_.active_stage >= 0 && frame_.active_col >= 0 && frame_.terms_total > 0)
    active_cell_ = active_cache_.get(trace, model_.scenario(), generation, trace.stages[static_cast<size_t>(frame_.active_stage)].ref(),
                                     frame_.active_row, frame_.active_col);
  caption_ = describe_step(trace, tl, frame_, active_cell_);
  // "press Play (Space)... or hover any cell" is for someone at the window:
  // not in a picture, nor on the projector.
  if ((export_w_ > 0 || state_.view.presentation) && frame_.finished) caption_.detail.clear();
}

void App::draw_views(const Panels& p, WidgetProbe* probe) {
  const CanvasData data{model_, frame_, layout_, scales_, inspected_, active_cell_, caption_, fonts_, *textures_, state_,
                        state_.history.can_undo(), hidden_, export_background_, state_.opening, export_grids_only_,
                        options_.dump_layout.empty() ? nullptr : &probe_};
  if (state_.train.open) {
    const TrainViewData view{train_, train_grids_.get(train_, state_.train.shown, state_.train.example), fonts_};
    draw_train_view(p.canvas_pos, p.canvas_size, view, state_, options_.dump_layout.empty() ? nullptr : &probe_);
  } else if (state_.compare.open) {
    const attn::Trace* a = compare_traces_.a() ? compare_traces_.a() : model_.has_trace() ? &model_.trace() : nullptr;
    const attn::Trace* b = compare_traces_.b() ? compare_traces_.b() : model_.has_trace() ? &model_.trace() : nullptr;
    const CompareView view{compare_grids_ ? &*compare_grids_ : nullptr, compare_error_,
                           a && b ? comparable_stages(*a, *b) : std::vector<std::string>{},
                           a ? std::max(a->dims.n_heads, b ? b->dims.n_heads : 1) : 1, fonts_,
                           model_.has_trace() ? &model_.trace() : nullptr};
    draw_compare(p.canvas_pos, p.canvas_size, view, state_, options_.dump_layout.empty() ? nullptr : &probe_);
  } else {
    draw_canvas(p.canvas_pos, p.canvas_size, data, *renderer_, state_);
  }
  // The compare and Train views cover the status panel: its notices and
  // the changed-on-disk line come in a window of their own there.
  if (state_.train.open || state_.compare.open)
    draw_notice_window(p.canvas_pos, p.canvas_size, state_, options_.dump_layout.empty() ? nullptr : &probe_);
  draw_start_page(p.canvas_pos, p.canvas_size, state_, lessons_, options_.dump_layout.empty() ? nullptr : &probe_);
  draw_lesson_check(p.canvas_pos, p.canvas_size, state_, options_.dump_layout.empty() ? nullptr : &probe_);
  if (state_.view.show_inspector && p.inspector_size.x > 0)
    draw_inspector(p.inspector_pos, p.inspector_size, model_.has_trace() ? &model_.trace() : nullptr, inspected_, state_);
  // Floating windows over the canvas, drawn before any modal (see frame()).
  if (state_.view.show_why_scale)
    draw_why_scale_panel(why_scale_.inputs, why_scale_.result(), &state_.view.show_why_scale, p.canvas_pos,
                         p.canvas_size, probe, state_.view.colour.probability_map);
  if (state_.view.show_hull && model_.has_trace())
    draw_hull_panel(hull_.view(), hull_, model_.trace().dims.n_heads, state_.view.head >= 0, &state_.view.show_hull,
                    p.canvas_pos, p.canvas_size, probe);
}

void App::frame(double dt) {
  apply_presentation();
  apply_ui_size();
  apply_theme_if_changed();
  platform_.begin_frame(export_w_, export_h_);
  renderer_->begin_frame();
  WidgetProbe* probe = options_.dump_layout.empty() ? nullptr : &probe_;
  const Panels p = panels();
  last_panels_ = p;

  // 1. Input: everything that edits AppState.
  handle_shortcuts(state_, model_.has_trace() ? &model_.trace() : nullptr, model_.timeline());
  if (!presenting_chrome() && !export_canvas_only_)
    draw_menu_bar(state_, model_.has_trace() ? model_.trace().dims.n_heads : 1, lessons_, probe);
  if (p.lesson_size.x > 0) draw_lesson_panel(p.lesson_pos, p.lesson_size, state_, fonts_, model_.has_trace() ? &model_.trace() : nullptr, probe);
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
  draw_modals(state_, probe);
  draw_go_to_dialog(state_, model_.has_trace() ? &model_.trace() : nullptr, probe);
  if (export_w_ == 0) draw_export_dialogs(state_, model_.has_trace() ? &model_.trace() : nullptr, model_.timeline().total,
                                      options_.dump_layout.empty() ? nullptr : &probe_);
  platform_.end_frame(export_w_, export_h_);
  if (export_w_ > 0) return;  // an exported picture: no dumps, nothing remembered
  remember_settings();

  if (!options_.dump_state.empty()) {
    std::string key = state_dump_key(state_, model_) + "/train " + train_dump().dump();
    if (key != dumped_key_) {
      write_state_dump(options_.dump_state, state_, model_, train_dump());
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
  return layout_dump_text(layout_, number_inputs(model_.trace(), frame_, fonts_, state_), canvas, state_.view.pinned_axes, probe_,
                          width, height, textures_->uploads(), textures_->prepared_uploads());
}

}  // namespace viz

namespace viz {

// Compute for the compare view happens here, once per change, never in draw code.
void App::update_compare() {
  if (!state_.compare.open) {
    compare_grids_.reset();
    compare_key_.clear();
    return;
  }
  compare_traces_.update(state_.compare);
  const CompareState& c = state_.compare;
  const attn::Trace* doc = model_.has_trace() ? &model_.trace() : nullptr;
  // Stages an open lesson question hides stay hidden here too (answering reveals them).
  const std::vector<std::string> hidden = doc ? lesson_hidden_ids(state_, *doc) : std::vector<std::string>{};
  std::string key = std::to_string(c.revision) + "/" + std::to_string(model_.generation()) + "/" +
                    std::to_string(state_.document) + "/" + c.stage + "/" + std::to_string(c.head);
  for (const std::string& id : hidden) key += "/" + id;
  if (key == compare_key_) return;
  compare_key_ = key;
  compare_grids_.reset();
  compare_error_ = compare_traces_.error();
  const attn::Trace* a = c.a ? compare_traces_.a() : doc;
  const attn::Trace* b = c.b ? compare_traces_.b() : doc;
  if (!a || !b) {
    if (compare_error_.empty()) compare_error_ = "The scene cannot be computed: " + model_.error();
    return;
  }
  compare_grids_ = compare_for_view(*a, *b, c.stage, c.head, hidden);
}

}  // namespace viz
