// Construction, start-up options and the three run modes (interactive,
// screenshot, benchmark). One frame is in app_frame.cpp.
#include "shell/app.hpp"

#include <algorithm>
#include <unistd.h>

#include <chrono>
#include <ctime>
#include <cmath>
#include <cstdio>
#include <tuple>

#include "model_names.hpp"
#include "model/compare/compare_actions.hpp"
#include "model/compare/compare_feature.hpp"
#include "model/document/app_actions.hpp"
#include "model/flash_tiles/flash_tiles_feature.hpp"
#include "model/kv_cache/kv_cache_feature.hpp"
#include "model/lessons/lessons_feature.hpp"
#include "shell/register_views.hpp"
#include "model/classroom/class_feature.hpp"
#include "model/classroom/class_server.hpp"
#include "shell/capture.hpp"
#include "panels/menu_bar.hpp"
#include "gl/theme_style.hpp"
#include "model/settings/config_files.hpp"
#include "model/document/settings_state.hpp"

namespace viz {
namespace {

// --stage, --time and --inspect. With --model --layer they name the layer's
// scene the Model view opens, so the session applies them once it is shown.
StartView start_view(const Options& o) {
  StartView start{o.stage, o.time};
  if (!o.model_open_layer) return start;
  start.after_model_scene = true;
  start.set_focus = !o.stage.empty();
  start.focus_head = o.head ? *o.head : (o.inspect ? o.inspect->head : -1);
  if (o.inspect)
    if (const std::optional<attn::StageKind> kind = attn::stage_kind_named(o.inspect->stage))
      start.pin = CellRef{{*kind, o.inspect->head}, o.inspect->row, o.inspect->col};
  return start;
}

PlatformOptions platform_options(const Options& o) {
  PlatformOptions p;
  p.width = o.width;
  p.height = o.height;
  p.visible = !o.headless();
  p.vsync = !o.headless();
  p.fit_screen = !o.size_given;  // an explicit --size is taken as asked
  return p;
}

}  // namespace

App::App(const Options& options, AppState initial, LessonState lessons)
    : options_(options),
      session_(std::move(initial), SessionOptions{!options.headless(), start_view(options), &Platform::wake}, std::move(lessons)),
      state_(session_.state()),
      lessons_(session_.features().get<LessonsFeature>().state),
      model_view_(session_.features().get<ModelViewFeature>()),
      train_ui_(session_.features().get<TrainFeature>().ui),
      model_(session_.trace_model()),
      train_(session_.features().get<model::TrainFeature>()),
      platform_(platform_options(options)),
      base_style_(ImGui::GetStyle()),
      remembers_(options.remembers()) {
  renderer_ = std::make_unique<GridRenderer>();
  textures_ = std::make_unique<GridTextures>();
  // Remembered settings first (before the file given on the command line
  // joins the recent list); this run's command line goes over them.
  if (remembers_ && !options.config_dir_or_default().empty()) {
    settings_ = SettingsStore(options.config_dir_or_default() + "/settings.json");
    apply_settings(state_, settings_.settings());
  }
  state_.view.colour = with_colour_options(state_.view.colour, options);
  state_.granularity = options.granularity;
  state_.view.presentation = options.presentation;
  state_.view.spotlight = options.spotlight;
  // The UI follows the monitor's content scale (HiDPI) unless asked or chosen before.
  const int remembered_scale = settings_.settings().ui_scale_percent;
  state_.view.ui_scale_percent = options.ui_scale_percent > 0 ? options.ui_scale_percent
                                 : remembered_scale > 0       ? remembered_scale
                                     : std::clamp(static_cast<int>(std::lround(platform_.content_scale() * 100)), 75, 250);
  apply_presentation();
  apply_ui_size(true);
  register_views(views_, session_.features(), model_textures_);
  // The class session: its server, its autosave (offered back after a
  // crash), and --class starting it with the window.
  model::ClassFeature& class_session = session_.features().get<model::ClassFeature>();
  class_session.set_listener_factory(&model::make_class_server);
  if (remembers_) class_session.set_autosave_dir(options.config_dir_or_default());
  if (options.class_session) {
    model::ClassStart how{options.class_bind, options.class_port, std::nullopt, options.class_code};
    if (!options.class_resume.empty()) {
      std::string why;
      how.resume = model::read_class_autosave(options.class_resume, &why);
      if (!how.resume) actions::notify(state_, "The class session was not resumed: " + why);
    }
    class_session.start(std::move(how));
  }
  // --panel names a feature as the command line spells it ("flash-tiles").
  PanelRequest panels{{}, false};
  for (std::string panel : options.panels) panels.names.push_back((std::replace(panel.begin(), panel.end(), '-', '_'), panel));
  state_.view.panels = panels;
  FlashTilesState& flash = session_.features().get<FlashTilesFeature>().state;
  if (options.flash_blocks) std::tie(flash.block_rows, flash.block_cols) = *options.flash_blocks;
  if (options.flash_tile) flash.tile = {options.flash_tile->first, options.flash_tile->second};
  session_.features().get<KvCacheFeature>().choice.step = options.kv_step;
  state_.view.fit_zoom = options.zoom;
  if (options.head) state_.view.head = *options.head;
  if (!options.stage.empty() && !options.model_open_layer) {
    state_.view.focus_stage = options.stage;
    state_.view.focus_head = options.head ? *options.head : (options.inspect ? options.inspect->head : -1);
  }
  if (remembers_) {
    autosave_ = std::make_unique<AutosaveWriter>(autosave_file(options.config_dir_or_default(), static_cast<long>(::getpid())));
    autosave_->set_on_written(&Platform::wake);
  }
  if (!state_.path.empty()) actions::remember_recent(state_, state_.path);
  if (const std::string problem = settings_.take_problem(); !problem.empty()) actions::notify(state_, problem);
  // --inspect and --go-to name their stage; a name that is no stage pins nothing.
  const std::optional<attn::StageKind> inspected = options.inspect ? attn::stage_kind_named(options.inspect->stage) : std::nullopt;
  if (inspected && !options.model_open_layer) state_.pinned = CellRef{{*inspected, options.inspect->head}, options.inspect->row, options.inspect->col};
  const std::optional<attn::StageKind> gone_to = options.go_to ? attn::stage_kind_named(options.go_to->stage) : std::nullopt;
  if (gone_to) {
    const CellRef cell{{*gone_to, options.go_to->head}, options.go_to->row, options.go_to->col};
    state_.view.go_to.emplace();
    state_.view.go_to->cell = cell;
    state_.pinned = cell;
    if (state_.view.head >= 0 && cell.stage.head >= 0) state_.view.head = cell.stage.head;
  }
  settings_tracker_ = SettingsTracker(state_);
  // The desktop's file chooser, where one is installed (never under --test
  // unless ATTNVIZ_FILE_CHOOSER names one): the dialogs fall back to their own browser.
  chooser_tool_ = options.headless() ? ChooserTool::None : find_chooser_tool(options.test_mode);
  state_.files.desktop_available = chooser_tool_ != ChooserTool::None;
  state_.files.desktop_tool = chooser_tool_name(chooser_tool_);
  if (options.dialog == "open") actions::ask_open(state_);
  if (options.dialog == "save-as") actions::ask_save_as(state_);
  if (options.dialog == "open-lesson") state_.open_lesson_dialog = true;
  if (options.dialog == "export") export_ui_.dialog = true;
  if (options.dialog == "slides") {
    export_ui_.slides_dialog = lessons_.lesson.has_value();
    if (!lessons_.lesson) state_.message = "--dialog slides: slides are made of a lesson's steps; open one with --lesson FILE.";
  }
  if (options.dialog == "go-to") state_.view.go_to_dialog = true;
  if ((options.dialog == "file-changed" || options.dialog == "save-conflict") && state_.path.empty())
    state_.message = "--dialog " + options.dialog + ": it is about the open file; give one (attnviz FILE).";
  else if (options.dialog == "file-changed") state_.disk.outside = DiskChange::Changed;
  else if (options.dialog == "save-conflict") state_.disk.save_conflict = true;
}

// A dialog asked for the desktop's chooser, closed it, or is waiting for it.
void App::serve_desktop_chooser() {
  using Desktop = FileDialogs::Desktop;
  FileDialogs& f = state_.files;
  if (f.desktop_cancel) {
    f.desktop_cancel = false;
    chooser_.cancel();
    drop_chooser_result_ = chooser_.running();
  }
  if (f.desktop == Desktop::Ask && !chooser_.running()) {
    std::string error;
    if (chooser_.start(chooser_tool_, f.desktop_request, &error)) {
      f.desktop = Desktop::Choosing;
    } else {
      f.desktop = Desktop::Browse;
      f.desktop_result = ChooserResult{ChooserResult::Outcome::Failed, "", error};
    }
  }
  if (!chooser_.running()) return;
  if (std::optional<ChooserResult> r = chooser_.poll()) {
    if (drop_chooser_result_) drop_chooser_result_ = false;  // the dialog is gone or uses its own browser
    else if (f.desktop == Desktop::Choosing) f.desktop_result = std::move(r);
  }
}

void App::remember_settings() {
  if (!remembers_) return;
  settings_.save(settings_tracker_.remembered(state_, settings_.settings(), lessons_.lesson ? lessons_.lesson->lesson().path : ""));
  if (const std::string problem = settings_.take_problem(); !problem.empty()) actions::notify(state_, problem);
}

// The theme's ImGui colours go into the base style too, so a later change of
// text size (which starts again from the base style) keeps them.
void App::apply_theme_if_changed() {
  const Theme theme = state_.view.colour.theme;
  if (theme_set_ && theme == theme_applied_) return;
  apply_theme(ImGui::GetStyle(), theme);
  apply_theme(base_style_, theme);
  const Rgba c = palette(theme).canvas;
  platform_.set_clear_colour(c.r / 255.0f, c.g / 255.0f, c.b / 255.0f);
  theme_applied_ = theme;
  theme_set_ = true;
}

// Time options need the timeline, so they apply after the first recompute.
int App::run() {
  if (!options_.export_slides.empty()) return run_slides();
  if (!options_.export_path.empty()) return run_export();
  if (!options_.screenshot.empty()) return run_screenshot();
  if (options_.soak_seconds > 0) return run_soak();
  if (options_.benchmark) return run_benchmark();
  return run_interactive();
}

int App::run_interactive() {
  int settle = 3;  // ImGui needs a few frames after any input to settle hovers and layouts
  auto last = std::chrono::steady_clock::now();
  while (!state_.quit) {
    const Pace pace = wait_for_next_frame(settle);
    if (pace != Pace::Polled) last = std::chrono::steady_clock::now();  // a wait is not animation time
    if (pace == Pace::Idled) settle = 3;
    if (platform_.take_close_request()) actions::request_quit(state_);
    for (const std::string& path : platform_.take_drops()) actions::request(state_, {PendingAction::Kind::Open, path});
    const auto now = std::chrono::steady_clock::now();
    const double dt = std::chrono::duration<double>(now - last).count();
    last = now;
    const std::uint64_t revision = state_.revision, generation = model_.generation();
    serve_desktop_chooser();  // the desktop's file chooser, run beside the window
    serve_export_requests();  // File > Export: stills at once, a few animation frames per UI frame
    serve_slides_requests();  // File > Export lesson as slides: one slide per UI frame
    take_autosave_outcome();
    frame(dt);
    platform_.swap();
    // A new trace (a background result) also settles: the panels drawn
    // before it arrived in this frame (the timeline, the editor) show it next.
    if (state_.revision != revision || model_.generation() != generation || state_.clock.playing) settle = 3;
    else --settle;
    autosave();
  }
  if (autosave_) autosave_->remove();  // a normal quit: nothing to offer back
  if (!options_.dump_state.empty()) write_state_dump(options_.dump_state, state_, model_, train_dump(), panels_dump());
  remember_settings();
  return !options_.dump_state.empty() && model_failed() ? 2 : 0;
}

App::Pace App::wait_for_next_frame(int settle) {
  // An input starts a recompute: the frame right after it shows the stale
  // mark at once, and the frames that settle hovers and layouts come at the
  // recompute's pace, so they do not take the cores from it (any further
  // input wakes the window at once all the same).
  const bool settling = settle > 0 && !(settle < 3 && model_.computing());
  // A feature that plays (a tile or a token a second) draws every frame.
  if (settling || state_.clock.playing || session_.features().animating() || state_.gesture.kind != CanvasGesture::Kind::None ||
      export_job_) {
    platform_.poll();
    return Pace::Polled;
  }
  if (session_.working() || chooser_.running()) {
    // A background recompute: redraw its progress a few times a second,
    // leaving the cores to the computation (its result wakes the window).
    platform_.wait(0.1);
    return Pace::Paced;
  }
  // Idle: sleep until something happens (a blinking text cursor needs a
  // slow tick, and unsaved work an autosave a few seconds from now).
  const bool autosave_due = autosave_ && state_.dirty() && autosaved_revision_ != state_.revision;
  platform_.wait(ImGui::GetIO().WantTextInput ? 0.5 : autosave_due ? kAutosaveSeconds : -1.0);
  return Pace::Idled;
}

// Before the frame: the writer wakes the window when a copy is done, and
// what it says must be in the frame that wake draws.
void App::take_autosave_outcome() {
  if (!autosave_) return;
  if (std::optional<AutosaveWriter::Outcome> outcome = autosave_->take_outcome()) {
    if (!outcome->ok) std::fprintf(stderr, "attnviz: could not write the autosave copy: %s\n", outcome->error.c_str());
    actions::autosave_outcome(state_, outcome->ok, outcome->error);
  }
}

void App::autosave() {
  if (!autosave_) return;
  if (!state_.dirty()) {
    // Saved, undone back to the file, or another file opened: no copy needed.
    if (autosave_written_) autosave_->remove();
    autosave_written_ = false;
    autosaved_revision_ = state_.revision;
    return;
  }
  const auto now = std::chrono::steady_clock::now();
  if (autosaved_revision_ == state_.revision || state_.edit_in_progress ||
      now - last_autosave_ < std::chrono::duration<double>(kAutosaveSeconds))
    return;
  AutosaveRecord r;
  r.path = state_.path;
  r.label = state_.path.empty() ? (state_.doc_label.empty() ? "built-in lesson" : state_.doc_label) : state_.path;
  r.time = static_cast<std::int64_t>(std::time(nullptr));
  r.file = state_.doc;
  autosave_->submit(std::move(r));
  autosaved_revision_ = state_.revision;
  autosave_written_ = true;
  last_autosave_ = now;
}

bool App::start_compare(const std::string& file, const std::string& stage) {
  CompareState& compare = session_.features().get<model::CompareFeature>().state();
  if (!file.empty() && !actions::compare_with_file(state_, compare, file)) return false;
  if (stage.empty()) return true;
  const std::optional<attn::StageKind> kind = attn::stage_kind_named(stage);
  if (!kind) {
    state_.message = "--compare-stage: there is no stage named \"" + stage + "\" (try weights, scores or output).";
    return false;
  }
  compare.stage = *kind;
  return true;
}

// --compare-with a scene that cannot be computed: the picture says why (as
// the window would), and the exit code tells a script, like `attn check`.
bool App::compare_failed() {
  const model::CompareFeature& compare = session_.features().get<model::CompareFeature>();
  if (!compare.open() || compare.error().empty()) return false;
  std::fprintf(stderr, "attnviz: cannot compare%s: %s\n",
               options_.compare_with.empty() ? "" : (" with " + options_.compare_with).c_str(), compare.error().c_str());
  return true;
}

int App::run_screenshot() {
  frame(0);
  platform_.swap();
  wait_for_model();  // a model's passes, then any head it opens in the pipeline view
  if (options_.screenshot_first_grids) {
    // What a big scene shows first (attn::compute_preview): frames at the
    // window's pace until some trace is on screen, then the picture; a
    // preview stays until it is taken (a small scene is whole at once).
    model_.hold_preview(true);
    while (opening() || (model_.computing() && !model_.has_trace())) {
      wait_for_next_frame(0);
      frame(0);
      platform_.swap();
    }
  } else {
    model_.wait_idle();  // a big scene computes in the background: picture its result
  }
  if (train_ui_.open) {  // --train-steps: the picture shows the run once it paused
    train_.run().wait_stopped();
    if (options_.train_show >= 0) train_ui_.shown = snapshot_at_or_before(train_.run(), options_.train_show);
  }
  for (int i = 0; i < 6; ++i) {
    frame(0);
    if (i < 5) platform_.swap();
  }
  int w = 0, h = 0;
  platform_.framebuffer_size(&w, &h);
  const std::string written = write_screenshot(options_.screenshot, w, h);
  if (!options_.dump_state.empty()) write_state_dump(options_.dump_state, state_, model_, train_dump(), panels_dump());
  if (!written.empty()) {
    std::fprintf(stderr, "attnviz: %s\n", written.c_str());
    return 1;
  }
  if (model_failed()) return 2;
  // The picture is written either way (it shows the error); like `attn
  // check`, a scenario that cannot be computed exits 2.
  if (!model_.error().empty()) {
    std::fprintf(stderr, "attnviz: %s cannot be computed: %s\n", state_.path.empty() ? "the scenario" : state_.path.c_str(),
                 model_.error().c_str());
    return 2;
  }
  if (compare_failed()) return 2;
  // Likewise training settings the view refused (--train-length beyond the
  // symbols, say): the picture shows the message, the exit code says so.
  // And a --train-model file that could not be opened.
  if (!options_.train_model.empty() && train_ui_.message.rfind("Could not open the model", 0) == 0) {
    std::fprintf(stderr, "attnviz: %s: %s\n", options_.train_model.c_str(), train_ui_.message.c_str());
    return 2;
  }
  if (!options_.train_task.empty() && train_ui_.message.rfind("Cannot train", 0) == 0) {
    std::fprintf(stderr, "attnviz: %s\n", train_ui_.message.c_str());
    return 2;
  }
  return 0;
}

}  // namespace viz
