// Session::update: the model's half of a frame, in the house order (see
// session.hpp). Compute happens here, once per change, never in draw code.
#include "model/session/session.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>

#include "attn/io/machine_limits.hpp"
#include "model/document/app_actions.hpp"
#include "model/document/disk_actions.hpp"
#include "model/framing/shown_stages.hpp"
#include "model/framing/slide_focus.hpp"
#include "model/lessons/lesson_actions.hpp"
#include "model/lessons/lesson_answers.hpp"
#include "model/lessons/lesson_opening.hpp"
#include "model/hf/model_view_feature.hpp"
#include "model/train/train_feature.hpp"
#include "model/lessons/lessons_feature.hpp"
#include "model/session/register_features.hpp"

namespace model {

Session::Session(AppState initial, SessionOptions options, LessonState lessons)
    : state_(std::move(initial)), options_(std::move(options)), lessons_(load_catalogue(lessons_dir(state_.assets_dir))) {
  register_features(features_);
  lesson_state() = std::move(lessons);
  trace_.set_follow_up(&texel_step_);
  if (options_.wake) {
    trace_.set_on_ready(options_.wake);
    texel_step_.set_wake(options_.wake);
    features_.get<TrainFeature>().set_wake(options_.wake);
    loader_.set_on_ready(options_.wake);
    disk_watcher_.set_on_change(options_.wake);
    lesson_loader_.set_on_ready(options_.wake);
    features_.get<ModelViewFeature>().session.set_wake(options_.wake);
  }
}

void Session::update(double dt, const CanvasMetrics& canvas) {
  // Whether the clock was at the end of the animation, before anything moves it.
  const bool at_end = last_total_ >= 0 && state_.clock.t >= last_total_ - 1e-9;
  // What can replace the document goes before the trace model hears of it.
  update_opening();
  watch_disk();
  update_lesson_opening();
  FeatureFrame before{state_, trace_, dt, canvas.width};
  features_.before_trace(before);
  update_model();
  if (state_.cancel_compute) trace_.cancel();
  if (state_.compute_again) trace_.compute_again();
  state_.cancel_compute = state_.compute_again = false;
  texel_step_.set_request(TexelRequest{state_.view.colour, state_.view.head});
  trace_.update(state_.doc.scenario, state_.document, state_.revision, TimelineKey{state_.granularity, state_.view.head},
                attn::io::machine_limits());
  texels_ = trace_.has_trace() ? texel_step_.made_for(trace_.trace()) : nullptr;
  if (state_.view.panels) features_.show(*std::exchange(state_.view.panels, std::nullopt));
  FeatureFrame frame{state_, trace_, dt, canvas.width};
  features_.update(frame);
  if (!trace_.has_trace()) return;
  apply_start_view();
  derive_view(dt, canvas, at_end);
}

// A file asked for is read on the loader's thread while the window keeps
// drawing the current document; it becomes the document only when read whole.
void Session::update_opening() {
  if (!state_.open_request.empty()) {
    loader_.start(state_.open_request);
    state_.open_request.clear();
  }
  if (state_.cancel_open) {
    loader_.cancel();
    state_.cancel_open = false;
  }
  if (std::optional<FileLoader::Loaded> done = loader_.take()) {
    if (done->file) actions::background_read_arrived(state_, std::move(*done->file), done->path, done->stamp);
    else actions::open_failed(state_, done->error);
  }
  state_.opening = loader_.reading();
}

// Someone else may change the open file while it is open (another window,
// an editor): the watcher's thread looks, and the status panel says so.
void Session::watch_disk() {
  if (!options_.watch_disk) return;
  disk_watcher_.watch(state_.path, state_.disk.stamp);
  if (std::optional<DiskReport> report = disk_watcher_.take()) actions::disk_report(state_, *report);
}

LessonState& Session::lesson_state() { return features_.get<LessonsFeature>().state; }

// A lesson asked for is checked on the loader's thread, with its progress
// shown; it starts when the check has passed.
void Session::update_lesson_opening() {
  LessonOpening& o = lesson_state().opening;
  if (o.cancel) {
    lesson_loader_.cancel();
    o.cancel = false;
  }
  if (!o.request.empty()) {
    lesson_loader_.start(o.request);
    o.request.clear();
  }
  if (std::optional<LessonLoader::Checked> done = lesson_loader_.take()) {
    actions::lesson_checked(state_, lesson_state(), std::move(done->lesson), done->message);
    return;
  }
  const LessonLoader::Progress p = lesson_loader_.progress();
  o.steps_done = p.done;
  o.steps = p.steps;
}

void Session::apply_start_view() {
  // A preview lacks stages the start may name; a model's layer is not there yet.
  if (start_applied_ || trace_.preview() || options_.start.after_model_scene) return;
  start_applied_ = true;
  const Timeline& tl = trace_.timeline();
  double t = tl.total;
  const StartView& start = options_.start;
  if (start.pin) state_.pinned = *start.pin;
  if (start.set_focus) {
    state_.view.focus_stage = start.stage;
    state_.view.focus_head = start.focus_head;
  }
  if (!start.stage.empty()) {
    const int index = trace_.trace().resolve_named(start.stage, state_.view.focus_head, state_.view.head);
    for (size_t k = 0; k < tl.stage_order.size(); ++k)
      if (tl.stage_order[k] == index) t = tl.spans[k].end;
    if (index < 0) start_problem_ = "no stage \"" + start.stage + "\" in this scenario; showing everything";
  }
  if (start.time) t = std::clamp(*start.time, 0.0, tl.total);
  state_.clock.scrub(tl, t);
}

const PreparedTexels* Session::prepared_texels() const {
  return texels_ && texels_->colour == state_.view.colour ? texels_ : nullptr;
}

void Session::release_texels() {
  texel_step_.release();
  texels_ = nullptr;
}

void Session::derive_view(double dt, const CanvasMetrics& canvas, bool at_end) {
  const attn::Trace& trace = trace_.trace();
  const Timeline& tl = trace_.timeline();
  if (tl.total != last_total_) {
    // A new trace or timeline: stay at the end if we were there, else clamp.
    state_.clock.t = at_end ? tl.total : std::min(state_.clock.t, tl.total);
    last_total_ = tl.total;
  }
  apply_view_request(state_, lesson_state(), trace, tl);  // a lesson step's moment or range
  state_.clock.tick(tl, dt);
  // Stages an open lesson question keeps hidden, and no explanation of them.
  hidden_.clear();
  const std::optional<LessonSession>& lesson = lesson_state().lesson;
  if (lesson && !lesson->revealed() && lesson->current().question) hidden_ = hidden_stages(*lesson->current().question, trace);

  const std::uint64_t generation = trace_.generation();
  // Scales made with a background result for the colours on screen are the
  // ones colour_scales() would make here.
  if (scales_generation_ != generation || scales_colour_ != state_.view.colour) {
    const PreparedTexels* prepared = prepared_texels();
    scales_ = prepared ? prepared->scales : colour_scales(trace, state_.view.colour, &trace_.row_ranges());
    scales_generation_ = generation;
    scales_colour_ = state_.view.colour;
    ++scales_revision_;  // large grids re-upload their colourmap coordinates
  }
  frame_ = evaluate(trace, tl, state_.clock.t);
  // The room the grids had last frame (the strips above and below hold the
  // caption and hints); about five text lines less than the canvas at first.
  const double room = state_.view.area.height() > 0 ? state_.view.area.height() : canvas.height - 5.5 * canvas.line_height;
  // A lesson step's own grids, a zoom, or (presenting) the stage being
  // computed and its inputs: one rule (shown_stages.hpp).
  const std::vector<int> only =
      canvas.only_stage >= 0 ? std::vector<int>{canvas.only_stage} : shown_stages(state_, lesson_state(), trace, tl, frame_);
  const LayoutKey key{trace_.layout_generation(), state_.view.head, static_cast<int>(canvas.width), static_cast<int>(room),
                      state_.view.presentation, only};
  if (!(key == layout_key_)) {
    LayoutOptions lo;
    lo.head = state_.view.head;
    lo.only = only;
    lo.cell = auto_cell_size(trace);
    lo = scaled_text(lo, text_scale(state_.view));
    // A lesson step on the projector or a slide: fewer grids rather than
    // cells too small to read (slide_focus.hpp), and when one grid is still
    // too big, the part of it the step is about.
    slide_note_.clear();
    const bool slide = state_.view.presentation && lesson_state().lesson && canvas.only_stage < 0;
    // The fit keeps its margin on every side: the cells are judged in the room left.
    const double margin = 2 * state_.view.fit_margin;
    const double wide = state_.view.area.width() > 0 ? state_.view.area.width() : canvas.width;
    const double view_w = std::max(50.0, wide - margin), view_h = std::max(50.0, room - margin);
    if (slide) {
      const SlideFocus f = slide_focus(state_, lesson_state(), trace, only, lo, view_w, view_h);
      lo.only = f.only;
      lo.head = f.head;
      lo.captions = f.captions;
      lo.share_row_labels = true;
      slide_note_ = f.left_out;
    }
    // A slide lays out for the room slide_focus() judged, so its choice of
    // bands is the one it measured.
    layout_ = slide ? layout_for_view(trace, lo, view_w, view_h) : layout_for_view(trace, lo, canvas.width, std::max(50.0, room));
    std::optional<Rect> crop;
    if (slide)
      if (const std::optional<SlideCrop> c = slide_crop(lesson_state(), trace, layout_, view_w, view_h)) {
        crop = c->world;
        std::string part = c->note;
        if (slide_note_.empty()) part[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(part[0])));
        slide_note_ += (slide_note_.empty() ? "" : " · ") + part;
      }
    if (crop.has_value() != state_.view.slide_crop.has_value() || (crop && !(*crop == *state_.view.slide_crop))) {
      state_.view.slide_crop = crop;
      state_.view.fit_pending = true;
    }
    // Another head or another focus is another picture: fit it even after
    // panning. Other changes of shape refit in the canvas unless the user
    // moved the view.
    if (key.head != layout_key_.head || key.only != layout_key_.only) state_.view.fit_pending = true;
    layout_key_ = key;
  }

  const std::optional<CellRef>& cell = state_.inspected();
  const bool cell_hidden = cell && std::find(hidden_.begin(), hidden_.end(), trace.index_of(cell->stage)) != hidden_.end();
  inspected_ = cell && !cell_hidden ? inspect_cache_.get(trace, trace_.scenario(), generation, cell->stage, cell->row, cell->col)
                                    : nullptr;
  active_cell_ = nullptr;
  if (frame_.active_stage >= 0 && frame_.active_col >= 0 && frame_.terms_total > 0)
    active_cell_ = active_cache_.get(trace, trace_.scenario(), generation, trace.stages[static_cast<size_t>(frame_.active_stage)].ref(),
                                     frame_.active_row, frame_.active_col);
  caption_ = describe_step(trace, tl, frame_, active_cell_);
  // "press Play (Space)... or hover any cell" is for someone at the window:
  // not in a picture, nor on the projector.
  if ((canvas.picture || state_.view.presentation) && frame_.finished) caption_.detail.clear();
}

}  // namespace model
