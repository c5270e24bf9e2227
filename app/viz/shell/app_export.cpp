// Exports, headless (--export) and from File > Export through the same
// functions: stills are written at once; GIF and MP4 frames are drawn a few
// per UI frame on this (GL) thread at their moment of the timeline, and
// encoded on an EncodeWorker thread, so the window never freezes.
#include <algorithm>
#include <cmath>
#include <chrono>
#include <cstdio>
#include <thread>

#include "shell/app.hpp"
#include "model_names.hpp"
#include "model/lessons/lesson_actions.hpp"
#include "attn/io/matrix_export.hpp"
#include "attn/io/scenario_file.hpp"
#include "attn/io/text_file.hpp"
#include "model/document/app_actions.hpp"
#include "model/export/png_file.hpp"
#include "model/export/svg_export.hpp"

namespace viz {

namespace {

constexpr Rgba kWhite{255, 255, 255, 255}, kBlack{0, 0, 0, 255};

// Colours an animation shows that the finished picture may not: kept
// exactly in a GIF's palette.
std::vector<Rgba> animation_colours(Theme theme) {
  const ThemePalette& p = palette(theme);
  return {p.step, p.step_fill, p.empty_cell, p.source, p.source_fill, p.cell_outline, p.lesson, p.lesson_fill};
}

// Why the trace on screen cannot be exported now (empty when it can).
std::string nothing_to_export(const TraceModel& model) {
  if (!model.has_trace()) return "nothing to export: the scenario cannot be computed";
  if (model.preview()) return "the scene is still being computed (only one head so far): export it when it is done";
  return "";
}

}  // namespace

RgbaImage App::render_export(const ExportRequest& r, std::optional<double> t, int settle) {
  const bool sized = r.width > 0 && r.height > 0;
  int w = 0, h = 0;
  platform_.framebuffer_size(&w, &h);
  export_w_ = sized ? r.width : static_cast<int>(std::lround(w * r.scale));
  export_h_ = sized ? r.height : static_cast<int>(std::lround(h * r.scale));
  if (!offscreen_ || offscreen_->width() != export_w_ || offscreen_->height() != export_h_)
    offscreen_ = std::make_unique<OffscreenTarget>(export_w_, export_h_);
  const double scale = sized ? picture_text_scale(r.height) : r.scale;
  export_scale_ = static_cast<float>(scale);
  export_canvas_only_ = sized;
  export_grids_only_ = sized && !is_animation(r.format);
  export_stage_ = r.stage;
  state_.view.fit_margin = 12 * scale;
  state_.view.fit_max_zoom = 2 * scale;
  auto shoot = [&](Rgba background, int frames) {
    export_background_ = background;
    offscreen_->bind();
    for (int i = 0; i < frames; ++i) {
      if (t && model_.has_trace()) state_.clock.scrub(model_.timeline(), *t);
      state_.view.fit_pending = true;  // the whole picture, whatever the user's pan and zoom
      frame(0);
    }
    OffscreenTarget::unbind();
    return offscreen_->read();
  };
  const Theme theme = state_.view.colour.theme;
  RgbaImage image = r.transparent ? matte(shoot(kBlack, settle), shoot(kWhite, 1))
                                  : shoot(theme == Theme::Light ? kWhite : palette(theme).canvas, settle);
  // --dump-layout: the grids as the picture has them (its last frame).
  if (options_.headless() && !options_.dump_layout.empty() && model_.has_trace())
    last_export_layout_ = layout_dump_now(export_w_, export_h_);
  export_w_ = export_h_ = 0;
  export_canvas_only_ = export_grids_only_ = false;
  if (sized) return image;  // the size asked for, the grids fitted into it
  // An animation keeps the whole canvas (its caption says what each step
  // does); a still is cropped to the grids, or to one grid, with a margin.
  const Panels& p = last_panels_;
  Rect area{p.canvas_pos.x, p.canvas_pos.y, p.canvas_pos.x + p.canvas_size.x, p.canvas_pos.y + p.canvas_size.y};
  if (!is_animation(r.format)) {
    const GridBox* g = r.stage >= 0 ? session_.layout().find(r.stage) : nullptr;
    const Rect box = state_.view.transform.to_screen(g ? g->box : session_.layout().bounds);
    const double m = 12 * r.scale;
    area = {std::max(area.x0, box.x0 - m), std::max(area.y0, box.y0 - m), std::min(area.x1, box.x1 + m), std::min(area.y1, box.y1 + m)};
  }
  return image.crop(static_cast<int>(std::floor(area.x0)), static_cast<int>(std::floor(area.y0)), static_cast<int>(std::ceil(area.x1)),
                    static_cast<int>(std::ceil(area.y1)));
}

void App::restore_after_export() {
  export_scale_ = 1;
  export_stage_ = -1;
  export_background_.reset();
  export_w_ = export_h_ = 0;
  export_canvas_only_ = export_grids_only_ = false;
  state_.view.fit_margin = 12;
  state_.view.fit_max_zoom = 2;
  state_.view.fit_pending = true;
}

std::string App::export_still(const ExportRequest& r) {
  if (std::string why = nothing_to_export(model_); !why.empty()) return why;
  const attn::Trace& trace = model_.trace();
  try {
    switch (r.format) {
      case ExportFormat::Png: {
        const RgbaImage img = render_export(r, std::nullopt, 3);
        restore_after_export();
        return model::write_png(r.path, {img.pixels.data(), img.width, img.height, 4, static_cast<size_t>(img.width) * 4});
      }
      case ExportFormat::Svg: {
        LayoutOptions lo;
        lo.head = state_.view.head;
        lo.cell = auto_cell_size(trace);
        SvgOptions so;
        so.stage = r.stage;
        so.transparent = r.transparent;
        so.theme = state_.view.colour.theme;
        so.scale = r.scale;
        attn::io::write_text_atomically(r.path, pipeline_svg(trace, layout_pipeline(trace, lo), colour_scales(trace, state_.view.colour), so));
        return "";
      }
      case ExportFormat::Csv:
      case ExportFormat::Npy:
        if (r.stage < 0) return "which stage? CSV and NPY hold one stage's numbers (e.g. --stage weights --head 0)";
        attn::io::write_stage_file(r.path, trace.stages[static_cast<size_t>(r.stage)]);
        return "";
      case ExportFormat::Json:
        attn::io::write_text_atomically(r.path, attn::io::trace_to_json(trace).dump() + "\n");
        return "";
      case ExportFormat::Gif:
      case ExportFormat::Mp4:
        break;
    }
  } catch (const std::exception& e) {
    restore_after_export();
    return e.what();
  }
  return "not a still format";
}

std::string App::start_animation(const ExportRequest& r) {
  if (std::string why = nothing_to_export(model_); !why.empty()) return why;
  if (export_job_) return "an export is already running";
  auto job = std::make_unique<ExportJob>();
  job->request = r;
  job->times = frame_times(r, model_.timeline().total);
  try {
    std::unique_ptr<AnimationWriter> writer;
    if (r.format == ExportFormat::Gif) {
      // The palette comes from the last frame: every grid finished, in colour.
      const RgbaImage sample = render_export(r, job->times.back(), 3);
      writer = make_gif_writer(r.path, sample, animation_colours(state_.view.colour.theme), r.fps);
    } else {
      if (!ffmpeg_available()) throw ExportError(kNoFfmpeg);
      const RgbaImage first = render_export(r, job->times.front(), 3);
      writer = make_mp4_writer(r.path, first.width, first.height, r.fps);
    }
    job->worker = std::make_unique<EncodeWorker>(std::move(writer));
  } catch (const std::exception& e) {
    restore_after_export();
    return e.what();
  }
  restore_after_export();
  export_job_ = std::move(job);
  export_ui_.running = true;
  export_ui_.cancel = false;
  export_ui_.progress = 0;
  return "";
}

void App::export_step(int frames) {
  ExportJob& job = *export_job_;
  if (export_ui_.cancel && !job.worker->done()) job.worker->cancel();
  const double t_before = state_.clock.t;
  const bool playing = state_.clock.playing;
  const ViewOptions view = state_.view;
  bool rendered = false;
  try {
    for (int k = 0; k < frames && !export_ui_.cancel && job.next < job.times.size() && job.worker->has_room(); ++k) {
      job.worker->push(render_export(job.request, job.times[job.next], rendered || job.next > 0 ? 1 : 3));
      rendered = true;
      ++job.next;
    }
  } catch (const std::exception& e) {
    job.worker->cancel();
    std::fprintf(stderr, "attnviz: %s\n", e.what());
  }
  if (rendered && !options_.headless()) {  // back to what the user was looking at
    restore_after_export();
    state_.view = view;
    state_.view.fit_pending = !view.user_moved;
    state_.clock.t = t_before;
    state_.clock.playing = playing;
  }
  if (job.next == job.times.size() && !job.closed) {
    job.worker->close();
    job.closed = true;
  }
  export_ui_.progress = static_cast<double>(job.worker->encoded()) / static_cast<double>(job.times.size());
  if (!job.worker->done()) return;
  const std::string error = job.worker->error();
  const bool cancelled = export_ui_.cancel || (!job.closed && error.empty());
  end_export_job(cancelled ? "cancelled" : error);
}

void App::end_export_job(const std::string& outcome) {
  const std::string path = export_job_->request.path;
  export_job_.reset();  // joins the finished worker
  export_ui_.running = false;
  export_ui_.cancel = false;
  if (!outcome.empty()) std::remove(path.c_str());  // no half-written animation left behind
  const std::string text = outcome.empty() ? "Exported " + path : outcome == "cancelled" ? "Export cancelled" : "Export failed: " + outcome;
  actions::notify(state_, text);
  last_export_outcome_ = outcome;
}

void App::serve_export_requests() {
  if (export_ui_.start) {
    const ExportRequest r = *export_ui_.start;
    export_ui_.start.reset();
    std::string error = request_problem(r);
    if (error.empty()) error = is_animation(r.format) ? start_animation(r) : export_still(r);
    if (!error.empty()) actions::notify(state_, "Export failed: " + error);
    else if (!is_animation(r.format)) actions::notify(state_, "Exported " + r.path);
  }
  if (export_job_) export_step(2);
}

int App::run_export() {
  const std::optional<ExportFormat> format = export_format_of(options_.export_path);
  if (!format) {
    std::fprintf(stderr, "attnviz: --export: cannot tell the format of \"%s\" (end it in .png, .svg, .gif, .mp4, .csv, .npy or .json)\n",
                 options_.export_path.c_str());
    return 2;
  }
  // The canvas takes the whole window: the picture is the grids, not the panels.
  state_.view.show_editor = state_.view.show_inspector = false;
  // A big scene computes in the background, a preview (one head) first:
  // the export waits for the whole trace, as --screenshot does.
  frame(0);
  platform_.swap();
  wait_for_model();  // --model --layer: the layer's scene is what is exported
  if (model_failed()) return 2;
  model_.wait_idle();
  for (int i = 0; i < 3; ++i) {
    frame(0);
    platform_.swap();
  }
  if (!model_.has_trace() || !model_.trace().complete) {
    const std::string why = !model_.error().empty() ? model_.error()
                            : !model_.cancelled().empty() ? model_.cancelled()
                                                    : std::string("no result came back from the computation");
    std::fprintf(stderr, "attnviz: %s cannot be computed: %s\n", state_.path.empty() ? "the scenario" : state_.path.c_str(),
                 why.c_str());
    return 2;
  }
  if (compare_failed()) return 2;
  const attn::Trace& trace = model_.trace();
  ExportRequest r;
  r.path = options_.export_path;
  r.format = *format;
  r.scale = options_.export_scale;
  r.width = options_.export_width;
  r.height = options_.export_height;
  r.transparent = options_.transparent;
  r.fps = options_.fps;
  if (options_.head && (*options_.head < -1 || *options_.head >= trace.dims.n_heads)) {
    std::fprintf(stderr, "attnviz: --head: %d is out of range (the scenario has %d heads, 0 to %d)\n", *options_.head,
                 trace.dims.n_heads, trace.dims.n_heads - 1);
    return 2;
  }
  if (!options_.stage.empty()) {
    r.stage = trace.resolve_named(options_.stage, options_.head.value_or(-1), options_.head.value_or(0));
    if (r.stage < 0) {
      std::fprintf(stderr, "attnviz: --stage: no stage \"%s\" in this scenario (see `attn stages FILE`)\n", options_.stage.c_str());
      return 2;
    }
  }
  // The range: --from/--to, else a lesson step's range, else the stage's steps, else everything.
  const Timeline& tl = model_.timeline();
  if (const auto span = r.stage >= 0 ? stage_span(tl, r.stage) : std::nullopt; span && is_animation(r.format)) {
    r.from = span->start, r.to = span->end;
  } else if (lessons_.lesson) {
    const StepRange step = step_range(lessons_.lesson->current().view, trace, tl);
    r.from = step.from, r.to = step.to;
  }
  if (options_.from) r.from = *options_.from;
  if (options_.to) r.to = *options_.to;
  if (is_animation(r.format)) r.stage = -1;  // an animation shows the canvas (the stage chose its time range)
  if (const std::string problem = request_problem(r); !problem.empty()) {
    std::fprintf(stderr, "attnviz: %s\n", problem.c_str());
    return 2;
  }
  std::string error;
  if (is_animation(r.format)) {
    error = start_animation(r);
    while (error.empty() && export_job_) {
      export_step(4);
      if (export_job_) std::this_thread::sleep_for(std::chrono::milliseconds(2));  // the encoder is behind
    }
    if (error.empty()) error = last_export_outcome_;
  } else {
    error = export_still(r);
  }
  if (!error.empty()) {
    std::fprintf(stderr, "attnviz: %s\n", error.c_str());
    return 1;
  }
  if (!options_.dump_layout.empty() && !last_export_layout_.empty())
    attn::io::write_text_atomically(options_.dump_layout, last_export_layout_);
  return 0;
}

}  // namespace viz
