// attnviz: the desktop app. Parses options, loads the scenario (or the
// built-in first lesson) and runs the App; explains itself when there is no
// display instead of crashing.
#include <unistd.h>

#include <cstdio>
#include <exception>

#include "shell/app.hpp"
#include "classroom/class_headless.hpp"
#include "gl/embedded_assets.hpp"
#include "tuned_copy.hpp"
#include "model_names.hpp"
#include "model/settings/assets_dir.hpp"
#include "model/settings/config_files.hpp"
#include "model/lessons/lesson_actions.hpp"
#include "model/lessons/lesson_opening.hpp"
#include "model/document/app_actions.hpp"

int main(int argc, char** argv) {
  attn::launch::run_tuned_copy_if_any(argv);  // the package's AVX2 copy, where the CPU has AVX2
  viz::Options options;
  if (std::optional<int> exit_code = viz::parse_options(argc, argv, options)) return *exit_code;

  viz::AppState state;
  viz::LessonState lessons;  // handed to the session's lessons feature with the state
  state.builtin_text = std::string(viz::embedded::get("default.json"));
  // From the program the user started, not the tuned copy it may have become.
  state.assets_dir = viz::find_assets_dir(attn::launch::started_program(), ATTNVIZ_ASSETS_DIR);
  viz::actions::open_builtin(state);
  // A file that cannot be opened is the commonest start-up mistake: the app
  // opens anyway, on the built-in lesson, with the reason in a dialog.
  // A large file opens as File > Open opens it, read in the background: the
  // window appears at once, on the built-in lesson with "Opening…" and
  // Cancel, instead of after seconds of parsing (an 85 MB, 2048-token scene).
  // Captures need the document in their first frame, and a lesson or a
  // comparison is opened over it, so those read it first.
  const bool open_in_background = !options.file.empty() && (options.benchmark || !options.headless()) &&
                                  options.lesson.empty() && options.compare_with.empty() &&
                                  viz::actions::opens_in_background(options.file);
  if (open_in_background) viz::actions::request_background_open(state, options.file);
  bool start_failed = !options.file.empty() && !open_in_background && !viz::actions::open(state, options.file);
  if (options.remembers()) {
    lessons.progress = viz::ProgressStore(options.config_dir_or_default() + "/progress.json");
    // Work a crashed run left behind is offered back (the newest; a copy
    // that cannot be read is dropped).
    for (const std::string& file : viz::orphaned_autosaves(options.config_dir_or_default())) {
      if (auto record = viz::read_autosave(file)) {
        state.restore_offer = std::move(record);
        state.restore_file = file;
        break;
      }
      viz::remove_autosave(file);
    }
  }
  if (!lessons.progress.problem().empty()) viz::actions::notify(state, lessons.progress.problem());
  // A lesson is checked in the background, as File > Open lesson does: the
  // window appears at once with "Checking lesson… step k of n" and Cancel
  // (a 500-step lesson on a 1024-token scene kept it away for 20 s). A
  // picture, the slides dialog and a comparison need the lesson at their
  // start, so those check it first.
  const bool lesson_in_background = !options.headless() && !options.class_headless() && options.compare_with.empty() &&
                                    options.dialog != "slides";
  if (!options.lesson.empty() && !start_failed && lesson_in_background) {
    viz::actions::request_lesson(lessons, options.lesson, options.step);
  } else if (!options.lesson.empty() && !start_failed) {
    start_failed = !viz::actions::open_lesson_now(state, lessons, options.lesson);
    if (lessons.lesson) {
      const std::string past_end = viz::actions::step_out_of_range(lessons.lesson->lesson(), options.step);
      if (!past_end.empty()) {
        std::fprintf(stderr, "attnviz: %s\n", past_end.c_str());
        return 2;
      }
      if (options.step > 0) viz::actions::lesson_step(state, lessons, options.step - 1);
    }
  }
  state.show_start_page = options.start_page || (options.remembers() && options.file.empty() && !lessons.lesson &&
                                                  lessons.opening.request.empty());
  // --class --test: the class session without a window (no display needed).
  if (options.class_headless()) {
    if (start_failed) return 2;
    return viz::run_class_headless({options.class_bind, options.class_port, options.config_dir, options.class_code}, std::move(state), std::move(lessons));
  }
  try {
    viz::App app(options, std::move(state), std::move(lessons));
    // --compare-with FILE: the compare view lives in the app's session.
    if (!start_failed) start_failed = !app.start_compare(options.compare_with, options.compare_stage);
    if (start_failed) std::fprintf(stderr, "attnviz: %s\n", viz::actions::one_line(app.message()).c_str());
    const int code = app.run();
    // Scripts must notice: headless runs still write their output, then fail.
    return start_failed && options.headless() ? 2 : code;
  } catch (const viz::NoDisplayError& e) {
    std::fprintf(stderr,
                 "attnviz: %s. attnviz needs a graphical display; use `attn` for the command line "
                 "(e.g. `attn explain FILE`) or run under xvfb-run (e.g. `xvfb-run -a attnviz --screenshot out.png`).\n",
                 e.what());
    return 3;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "attnviz: %s\n", e.what());
    return 1;
  }
}
