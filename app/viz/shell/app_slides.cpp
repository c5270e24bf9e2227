// A lesson as slides (slides_plan.hpp): --export-slides DIR and File >
// Export lesson as slides, through the same functions. Each slide is the
// presentation screen of one step at the slide's size, drawn offscreen with
// no control on it (no transport bar, no buttons, no fields): the step's
// text, its question and choices, and the grids it is about. The interactive
// export draws one slide per UI frame, with progress and Cancel, and gives
// the student's place and answers back when it ends. The slides are also
// the pages of one PDF beside the PNGs (model/export/slides_pdf.hpp).
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "attn/io/text_file.hpp"
#include "shell/capture.hpp"
#include "shell/app.hpp"
#include "model_names.hpp"
#include "model/classroom/class_feature.hpp"
#include "model/document/app_actions.hpp"
#include "model/export/png_file.hpp"
#include "model/lessons/lesson_actions.hpp"
#include "model/settings/theme.hpp"

namespace viz {

RgbaImage App::render_slide(int width, int height) {
  export_w_ = width;
  export_h_ = height;
  if (!offscreen_ || offscreen_->width() != export_w_ || offscreen_->height() != export_h_)
    offscreen_ = std::make_unique<OffscreenTarget>(export_w_, export_h_);
  const Theme theme = state_.view.colour.theme;
  export_background_ = theme == Theme::Light ? Rgba{255, 255, 255, 255} : palette(theme).canvas;
  offscreen_->bind();
  // Frames for the step's timing, the fit and the lesson text's size to
  // settle (a long step's column may widen up to three times, each refitted).
  for (int i = 0; i < 12; ++i) {
    state_.view.fit_pending = true;
    frame(0);
  }
  OffscreenTarget::unbind();
  RgbaImage image = offscreen_->read();
  last_slide_layout_.clear();  // a slide without a layout of its own writes none, not the one before
  if (!options_.dump_layout.empty() && (model_.has_trace() || train_ui_.open)) last_slide_layout_ = layout_dump_now(width, height);
  export_w_ = export_h_ = 0;
  export_background_.reset();
  return image;
}

std::string App::start_slides(const std::string& dir, int width, int height, bool as_presented) {
  if (!lessons_.lesson) return "no lesson is open: slides are made of a lesson's steps";
  if (slides_job_) return "slides are already being exported";
  if (const std::string problem = slide_size_problem(width, height); !problem.empty()) return problem;
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec || !std::filesystem::is_directory(dir)) return "cannot make the folder " + dir + (ec ? ": " + ec.message() : "");
  auto job = std::make_unique<SlidesJob>();
  job->dir = dir;
  job->width = width;
  job->height = height;
  job->slides = plan_slides(lessons_.lesson->lesson());
  job->pdf = std::make_unique<SlidesPdf>();
  job->pdf_path = (std::filesystem::path(dir) / slides_pdf_file(lessons_.lesson->lesson())).string();
  job->saved_progress = lessons_.lesson->progress();
  job->saved_step = lessons_.lesson->step();
  job->saved_presentation = state_.view.presentation;
  job->saved_pinned = state_.pinned;
  job->saved_train = train_.set_aside();
  slides_job_ = std::move(job);
  session_.features().get<model::ClassFeature>().freeze(true);  // the class is not asked what the export walks through
  state_.view.presentation = true;
  state_.view.slide = !as_presented;
  export_ui_.running = true;
  export_ui_.cancel = false;
  export_ui_.progress = 0;
  export_ui_.writing = dir;
  return "";
}

std::string App::slides_step(bool wait) {
  SlidesJob& job = *slides_job_;
  const Slide& slide = job.slides[job.next];
  if (!job.training) {
    if (!slide.answer) {
      actions::lesson_step(state_, lessons_, slide.step);
      lessons_.view_request_at_end = true;  // a step that plays a stretch is shown as it ends
    } else {
      actions::give_up_lesson(state_, lessons_);
    }
    // The step's scene, computed whole (a big one in the background); a
    // step that trains starts its run (its settings were taken this frame).
    frame(0);
    model_.wait_idle();
    if (train_ui_.open && !train_.run().running() && train_.run().steps() < train_ui_.max_steps) {
      train_.run().set_max_steps(train_ui_.max_steps);  // to the step's count, not that many more
      train_ui_.command = TrainUi::Command::Start;
      frame(0);
    }
    job.training = train_ui_.open;
  }
  if (job.training) {
    if (wait) train_.run().wait_stopped();
    else if (train_.run().running()) return "";
    job.training = false;
    train_ui_.shown = -1;  // the run as trained
  }
  const RgbaImage image = render_slide(job.width, job.height);
  const std::string path = (std::filesystem::path(job.dir) / slide.file).string();
  if (std::string error = model::write_png(path, {image.pixels.data(), image.width, image.height, 4, static_cast<size_t>(image.width) * 4});
      !error.empty())
    return error;
  if (std::string error = job.pdf->add_page(image.pixels.data(), image.width, image.height); !error.empty()) return error;
  if (!last_slide_layout_.empty()) {
    const std::string dump = (std::filesystem::path(job.dir) / (slide.file.substr(0, slide.file.size() - 4) + ".layout.json")).string();
    attn::io::write_text_atomically(dump, last_slide_layout_);
  }
  ++job.next;
  if (job.next == job.slides.size())
    if (std::string error = job.pdf->write(job.pdf_path); !error.empty()) return error;
  export_ui_.progress = static_cast<double>(job.next) / static_cast<double>(job.slides.size());
  return "";
}

void App::end_slides(const std::string& outcome) {
  if (!slides_job_) return;
  SlidesJob job = std::move(*slides_job_);
  slides_job_.reset();
  // The student's place and answers, as they were.
  if (lessons_.lesson) {
    lessons_.lesson->restore(job.saved_progress);
    actions::lesson_step(state_, lessons_, job.saved_step);
  }
  session_.features().get<model::ClassFeature>().freeze(false);
  state_.pinned = job.saved_pinned;
  if (job.saved_train) train_.put_back(std::move(*job.saved_train), lessons_, state_.document);
  state_.view.presentation = job.saved_presentation;
  state_.view.slide = false;
  state_.view.fit_pending = true;
  export_ui_.running = false;
  export_ui_.writing.clear();
  if (outcome.empty())
    actions::notify(state_, "Exported " + std::to_string(job.next) + " slides to " + job.dir + ", and all of them as " + job.pdf_path);
  else actions::notify(state_, "Slides: " + outcome);
}

void App::serve_slides_requests() {
  if (export_ui_.start_slides) {
    const ExportUi::SlidesRequest r = *export_ui_.start_slides;
    export_ui_.start_slides.reset();
    if (const std::string error = start_slides(r.dir, r.width, r.height); !error.empty())
      actions::notify(state_, "Slides: " + error);
  }
  if (!slides_job_) return;
  if (export_ui_.cancel) {
    end_slides("cancelled after " + std::to_string(slides_job_->next) + " slides");
    return;
  }
  const std::string error = slides_step(false);
  if (!error.empty()) end_slides(error);
  else if (slides_job_->next == slides_job_->slides.size()) end_slides("");
}

int App::run_slides() {
  if (!lessons_.lesson) {
    std::fprintf(stderr, "attnviz: --export-slides needs a lesson (--lesson FILE)\n");
    return 2;
  }
  int w = 0, h = 0;
  platform_.framebuffer_size(&w, &h);
  frame(0);  // the first frame sets ImGui up before any offscreen one
  if (const std::string error = start_slides(options_.export_slides, w, h, options_.presentation); !error.empty()) {
    std::fprintf(stderr, "attnviz: --export-slides: %s\n", error.c_str());
    return 2;
  }
  std::string error;
  while (error.empty() && slides_job_->next < slides_job_->slides.size()) error = slides_step(true);
  const size_t written = slides_job_->next;
  const std::string pdf = slides_job_->pdf_path;
  end_slides(error);
  if (!error.empty()) {
    std::fprintf(stderr, "attnviz: --export-slides: %s\n", error.c_str());
    return 2;
  }
  std::printf("attnviz: wrote %zu slides to %s\n", written, options_.export_slides.c_str());
  std::printf("attnviz: wrote %s (%zu pages)\n", pdf.c_str(), written);
  return 0;
}

}  // namespace viz
