// Command-line options of the attnviz app: the file to open, and the headless
// modes used by scripts and tests (screenshot, benchmark, state/layout dumps).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model_names.hpp"
#include "model/colour/colour_options.hpp"
#include "model/animation/timeline.hpp"

namespace viz {

struct InspectTarget {
  std::string stage;
  int head = -1, row = 0, col = 0;
};

struct Options {
  std::string file;                  // empty: the built-in default lesson
  std::string screenshot;            // write a PNG and exit
  // --screenshot-at first-grids: picture a big scene's first grids (its head
  // on screen, drawn before the rest is computed) instead of the whole trace.
  bool screenshot_first_grids = false;
  // --export OUT.png|svg|gif|mp4 (or csv, npy, json): write it and exit,
  // through the same code as File > Export.
  std::string export_path;
  std::string dialog;  // --dialog: a file dialog open at start
  std::string export_slides;  // --export-slides DIR: the lesson as one PNG a step and one PDF (at --size)
  double export_scale = 1;           // --scale: 1, 2 or 4
  int export_width = 0, export_height = 0;  // --export-size WxH (0: the canvas at --scale)
  std::optional<double> from, to;    // --from/--to: an animation's range in timeline seconds
  bool transparent = false;          // --transparent: PNG/SVG without background
  int fps = 10;
  std::string stage;                 // focus this stage id (and show it complete)
  std::optional<int> head;           // show only this head
  std::optional<double> time;        // animation time in seconds (default: the end)
  std::optional<InspectTarget> inspect;
  std::optional<InspectTarget> go_to;  // --go-to: centre the view on this cell (and pin it)
  int width = 1600, height = 1000;
  double zoom = 1;                   // times the fit, about the centre of what is fitted
  bool size_given = false;
  Granularity granularity = Granularity::Stage;
  bool benchmark = false;
  int frames = 120;
  bool play = false;                 // --benchmark while the animation plays
  std::string dump_state;            // JSON of the scenario + a few trace values
  std::string dump_layout;           // JSON of every grid's cell rectangles
  bool presentation = false;
  int ui_scale_percent = 0;          // 75..250; 0: follow the monitor
  bool spotlight = false;            // start with the spotlight on
  std::vector<std::string> panels;   // explore panels open at start: "why-scale", "hull", "flash-tiles", "kv-cache"
  std::optional<std::pair<int, int>> flash_blocks;  // --flash-blocks R,C: the tiles panel's B_r, B_c
  std::optional<std::pair<int, int>> flash_tile;    // --flash-tile I,J: the tile it shows
  int kv_step = 0;                   // the KV cache panel's step at start (--kv-step)
  bool test_mode = false;            // UI tests: the user's settings are neither read nor written
  std::string config_dir;            // instead of $XDG_CONFIG_HOME/attnviz (tests of what is remembered)

  std::string lesson;                // start this lesson file
  std::string compare_with;          // open the compare view: A = this file, B = the document
  std::string compare_stage;         // the stage it compares (default: the weights)
  int step = 0;                      // at this step (from 1); 0: where the student left it
  bool start_page = false;           // show the start page (it shows by itself in a plain interactive run)

  // --class: a class session starts with the window (students answer from
  // their phones); with --test it runs without a window, taking the
  // teacher's commands on standard input (classroom/class_headless.hpp).
  bool class_session = false;
  std::string class_bind;            // --bind: the interface's address ("" : the default route's)
  int class_port = -1;               // --port (0: any free one; -1: the usual one, or any free one)
  std::string class_code;            // --class-code: this session code instead of a random one
  std::string class_resume;          // --class-resume FILE: take up a saved session (a picture of a class's tally)
  bool class_headless() const { return class_session && test_mode; }

  // The Train view at start (--train TASK), and for headless pictures: train
  // this many steps first, then show the snapshot at or before --train-show.
  std::string train_task;
  std::string train_model;           // open this trained-model file in the Train view
  int train_steps = 0;
  int train_show = -1;
  int train_layers = 0, train_heads = 0, train_length = 0;  // 0: the view's defaults
  std::optional<std::uint64_t> train_seed;
  std::string train_positions;       // "learned" or "sinusoidal"

  // The Model view at start: a Hugging Face folder run on --text; with
  // --layer (and --head) that head opens in the pipeline view.
  std::string model_dir, model_text;
  bool keep_first_tokens = false;                 // --keep-first-tokens: a longer text runs on the model's first N
  std::optional<int> model_open_layer;            // --layer
  std::vector<std::pair<int, int>> heads_off;     // --heads-off 0.1,2.3: layer.head
  std::string ablate;                             // --ablate zero|mean
  std::string model_tab;                          // --model-tab overview|heads
  std::string model_corrupted;                    // --corrupted: patching's corrupted prompt
  std::string model_beside;                       // --beside: the same model at higher precision
  std::string patch_site;                         // --patch-site heads|positions
  std::string patch_answer, patch_wrong;          // --patch-answer, --patch-wrong: the metric's tokens as text
  int model_layer = -1;                           // --model-layer: the head view's layer
  std::string head_measure;                       // --measure previous|first|self|entropy: the overview's colour
  bool sort_heads = false;                        // --sort-heads: each layer's heads by that measure
  bool show_switched_off = false;                 // --show-switched-off: the overview after the heads are off

  double soak_seconds = 0;           // --soak: play for this long, print memory and frame time
  // Colour choices for this run only, over the remembered ones (what the
  // user then changes in the menu is remembered).
  std::optional<ColourmapId> signed_map, probability_map;
  std::optional<Theme> theme;
  std::optional<Contrast> contrast;
  bool log_weights = false, shared_range = false;

  bool headless() const {
    return !screenshot.empty() || !export_path.empty() || !export_slides.empty() || benchmark || soak_seconds > 0;
  }
  // Whether this run reads and writes the user's config (settings, recent
  // files, lesson progress): never in tests, screenshots or benchmarks.
  // --config-dir makes even a test run remember, in that folder.
  bool remembers() const { return !headless() && (!config_dir.empty() || (!test_mode && dump_state.empty())); }
  std::string config_dir_or_default() const;
};

// Parses argv. Returns an exit code when the program should stop (help,
// version or an error, already printed), or nullopt to continue.
std::optional<int> parse_options(int argc, char** argv, Options& out);

// The colour options with this run's command-line choices applied.
ColourOptions with_colour_options(ColourOptions colour, const Options& options);

// "ID:H:I:J" (H may be -1 for shared stages) -> target; nullopt when malformed.
std::optional<InspectTarget> parse_inspect(const std::string& text);

}  // namespace viz
