// CLI11 parsing for the app. Values are checked here so a typo in a test
// script fails loudly instead of silently rendering the wrong thing.
#include "shell/options.hpp"

#include "model/classroom/class_session.hpp"

#include <cstdio>
#include <sstream>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

#include "attn/io/text_file.hpp"
#include "model_names.hpp"
#include "model/settings/config_files.hpp"
#include "model/export/export_plan.hpp"
#include "model/export/slides_plan.hpp"

namespace viz {

// "A,B": two whole numbers, each at least `least` (--flash-blocks, --flash-tile).
std::optional<std::pair<int, int>> parse_int_pair(const std::string& text, int least) {
  int a = 0, b = 0, used = 0;
  if (std::sscanf(text.c_str(), "%d,%d%n", &a, &b, &used) != 2 || used != static_cast<int>(text.size())) return std::nullopt;
  if (a < least || b < least) return std::nullopt;
  return std::make_pair(a, b);
}

std::optional<InspectTarget> parse_inspect(const std::string& text) {
  std::istringstream in(text);
  InspectTarget t;
  std::string head, row, col;
  if (!std::getline(in, t.stage, ':') || !std::getline(in, head, ':') || !std::getline(in, row, ':') ||
      !std::getline(in, col))
    return std::nullopt;
  try {
    size_t used = 0;
    t.head = std::stoi(head, &used);
    if (used != head.size()) return std::nullopt;
    t.row = std::stoi(row, &used);
    if (used != row.size()) return std::nullopt;
    t.col = std::stoi(col, &used);
    if (used != col.size()) return std::nullopt;
  } catch (const std::exception&) {
    return std::nullopt;
  }
  if (t.stage.empty() || t.row < 0 || t.col < 0) return std::nullopt;
  return t;
}

namespace {

// A file attnviz can open, else why not, in attnviz's own words: CLI11's
// ExistingFile said "File does not exist" for a symlink loop.
const CLI::Validator kReadableFile(
    [](std::string& path) {
      const std::string why = attn::io::why_unreadable(path);
      return why.empty() ? why : path + ": " + why;
    },
    "FILE");

}  // namespace

std::string Options::config_dir_or_default() const { return config_dir.empty() ? viz::config_dir() : config_dir; }

ColourOptions with_colour_options(ColourOptions c, const Options& o) {
  if (o.signed_map) c.signed_map = *o.signed_map;
  if (o.probability_map) c.probability_map = *o.probability_map;
  if (o.theme) c.theme = *o.theme;
  if (o.contrast) c.contrast = *o.contrast;
  if (o.log_weights) c.log_weights = true;
  if (o.shared_range) c.shared_range = true;
  return c;
}

std::optional<int> parse_options(int argc, char** argv, Options& o) {
  CLI::App app{"attnviz: see attention compute, one step at a time"};
  std::string size, export_size, inspect, go_to, granularity = "stage";
  std::string signed_map, probability_map, theme, contrast, flash_blocks, flash_tile;
  std::vector<std::string> maps;
  for (const Colourmap& m : colourmaps()) maps.push_back(m.name);
  int head = -2;
  double time = -1;
  app.add_option("file", o.file, "Scenario file to open (default: the built-in lesson)");
  app.add_option("--screenshot", o.screenshot, "Render one frame to this PNG and exit");
  std::string screenshot_at = "done";
  app.add_option("--screenshot-at", screenshot_at,
                 "With --screenshot: 'done' pictures the whole trace (default); 'first-grids' pictures what a big "
                 "scene shows first, its head on screen, while the rest is still computed")
      ->check(CLI::IsMember({"done", "first-grids"}));
  app.add_option("--export", o.export_path,
                 "Export to OUT.png, OUT.svg, OUT.gif or OUT.mp4 (also .csv/.npy with --stage, .json) and exit");
  app.add_option("--scale", o.export_scale, "With --export: PNG pixels per window pixel, 1, 2 or 4 (default 1)");
  app.add_option("--export-size", export_size,
                 "With --export of a PNG/GIF/MP4: the picture's size WxH (e.g. 1920x1080), the grids laid out for it "
                 "with no window around them (default: the canvas at --scale)");
  app.add_option("--compare-with", o.compare_with, "Open the compare view: A = FILE, B = the scenario opened (attnviz B.json --compare-with A.json)")
      ->check(kReadableFile);
  app.add_option("--compare-stage", o.compare_stage, "The stage the compare view shows (default weights)");
  app.add_option("--from", o.from, "With --export of a GIF/MP4: start at this timeline second (default 0, or --stage's start)");
  app.add_option("--to", o.to, "With --export of a GIF/MP4: end at this timeline second (default the end, or --stage's end)");
  app.add_flag("--transparent", o.transparent, "With --export of a PNG/SVG: no background");
  app.add_option("--fps", o.fps, "With --export of a GIF/MP4: frames per second (default 10)")->check(CLI::Range(1, 60));
  app.add_option("--stage", o.stage, "Focus this stage id (e.g. weights) and show it complete");
  app.add_option("--head", head, "Show only this head, -1 for all side by side (default: all; head 0 for 256+ tokens)");
  app.add_option("--time", time, "Animation time in seconds (default: the end, everything shown)");
  app.add_option("--inspect", inspect, "Pin the inspector on a cell: STAGE:HEAD:ROW:COL (HEAD -1 if shared)");
  app.add_option("--go-to", go_to, "Bring this cell to the middle of the view and pin the inspector on it: STAGE:HEAD:ROW:COL (HEAD -1 if shared)");
  app.add_option("--size", size, "Window size WxH (default 1600x1000)");
  app.add_option("--zoom", o.zoom, "Zoom to this many times the fit, e.g. 0.5 or 4 (default 1)")
      ->check(CLI::Range(0.01, 100.0));
  app.add_option("--granularity", granularity, "Animation steps: stage, row or cell")
      ->check(CLI::IsMember({"stage", "row", "cell"}));
  app.add_flag("--benchmark", o.benchmark, "Render frames without waiting and print the median frame time");
  app.add_flag("--play", o.play, "With --benchmark: measure while the animation plays (from the start, looping)");
  app.add_option("--soak", o.soak_seconds, "Play the animation in a loop for this many seconds; print memory and frame time at start and end")
      ->check(CLI::Range(1.0, 86400.0));
  app.add_option("--frames", o.frames, "Frames for --benchmark (default 120)")->check(CLI::Range(1, 100000));
  app.add_option("--dump-state", o.dump_state, "Write the scenario and a few results as JSON (on every recompute and at exit)");
  app.add_option("--dump-layout", o.dump_layout, "Write every grid's cell rectangles (screen pixels) as JSON");
  app.add_flag("--presentation", o.presentation,
               "Start presenting: one stage and its inputs fill the window, large text (F5 toggles)");
  app.add_flag("--spotlight", o.spotlight, "Dim all but the current cell, its row, column and sources (S toggles)");
  app.add_option("--ui-scale", o.ui_scale_percent, "UI size in percent, 75 to 250 (default: the monitor's scale)")
      ->check(CLI::Range(75, 250));
  app.add_option("--lesson", o.lesson, "Start this lesson file (see docs/lessons.md)");
  app.add_option("--export-slides", o.export_slides,
                 "With --lesson: write the lesson as slides to this folder, one PNG a step (and one with each "
                 "question's answer) and all of them as one PDF, at --size (320x240 to 7680x4320), and exit; with "
                 "--presentation, each step as presented (its buttons included) instead of as a handout");
  app.add_flag("--class", o.class_session,
               "With --lesson: start a class session. Students open the address shown (or scan its QR code) and "
               "answer each question on their own phone; the join address is also printed. With --test: no window; "
               "the teacher's commands (step N, lock, reveal, reopen, skip, tally, csv, resume, end) are read from "
               "standard input, one JSON line answers each");
  app.add_option("--bind", o.class_bind, "With --class: listen on this IPv4 address (default: the interface of the "
                                          "default route; 127.0.0.1 for this computer only)");
  app.add_option("--port", o.class_port, "With --class: listen on this port (default 8765, or any free one; 0: any free one)")
      ->check(CLI::Range(0, 65535));
  app.add_option("--class-code", o.class_code,
                 "With --class: use this session code (4 to 16 capital letters and digits) instead of a random one, "
                 "e.g. one printed on a handout")
      ->check([](const std::string& code) -> std::string {
        return model::session_code_problem(code);
      });
  app.add_option("--class-resume", o.class_resume,
                 "With --class: take up the class session saved in this file (class-session.json in the config "
                 "folder), its answers and code, instead of a fresh one")
      ->check(CLI::ExistingFile);
  app.add_option("--step", o.step, "With --lesson: start at this step, counted from 1")->check(CLI::Range(1, 100000));
  app.add_option("--dialog", o.dialog, "Open this dialog at start: open, save-as, open-lesson, export, slides, go-to, or what the app says when "
                 "FILE changes on disk: file-changed, save-conflict (with --screenshot: a picture of it)")
      ->check(CLI::IsMember({"open", "save-as", "open-lesson", "export", "slides", "go-to", "file-changed", "save-conflict"}));
  app.add_flag("--start-page", o.start_page, "Show the start page listing the lessons");
  // One value an occurrence: as a list option it also took the scene file
  // after it ("--panel hull scene.json" refused scene.json as a panel).
  app.add_option("--panel", o.panels, "Open an explore panel at start: why-scale, hull, flash-tiles, kv-cache or class (the class session's panel; repeatable)")
      ->allow_extra_args(false)
      ->check(CLI::IsMember({"why-scale", "hull", "flash-tiles", "kv-cache", "class"}));
  app.add_option("--flash-blocks", flash_blocks, "The FlashAttention tiles panel's block sizes B_r,B_c (e.g. 2,4)");
  app.add_option("--flash-tile", flash_tile, "The tile it shows: I,J (query block, key block, from 0)");
  app.add_option("--kv-step", o.kv_step, "With --panel kv-cache: show this token's step, counted from 0")->check(CLI::Range(0, 100000));
  app.add_option("--train", o.train_task,
                 "Open the Train view on this task: copy, reverse, sort, previous-token, induction or key-value")
      ->check(CLI::IsMember({"copy", "reverse", "sort", "previous-token", "induction", "key-value"}));
  app.add_option("--train-model", o.train_model, "Open this trained-model file (attn train -o) in the Train view")
      ->check(kReadableFile);
  app.add_option("--train-steps", o.train_steps, "With --train: train this many steps at start, then pause")
      ->check(CLI::Range(1, 100000));
  app.add_option("--train-show", o.train_show, "With --train: show the snapshot at or before this step")
      ->check(CLI::Range(0, 100000));
  app.add_option("--train-layers", o.train_layers, "With --train: 1 or 2 layers")->check(CLI::Range(1, 2));
  app.add_option("--train-heads", o.train_heads, "With --train: heads per layer, 1 to 8")->check(CLI::Range(1, 8));
  app.add_option("--train-length", o.train_length, "With --train: length of the task's random part")
      ->check(CLI::Range(1, 64));
  app.add_option("--train-seed", o.train_seed, "With --train: the seed of weights and data");
  app.add_option("--train-positions", o.train_positions, "With --train: learned or sinusoidal positions")
      ->check(CLI::IsMember({"learned", "sinusoidal"}));
  std::string heads_off;
  int open_layer = -1;
  app.add_option("--model", o.model_dir, "Open the Model view on this Hugging Face model folder (config.json, model.safetensors) or GGUF file");
  app.add_option("--text", o.model_text, "With --model: the text the model runs on");
  app.add_flag("--keep-first-tokens", o.keep_first_tokens,
               "With --model: a text longer than the model's positions runs on its first tokens (as many as it has positions)");
  app.add_option("--layer", open_layer, "With --model: open this layer (from 0) in the pipeline view, on --head (default 0)")
      ->check(CLI::Range(0, 100000));
  app.add_option("--heads-off", heads_off, "With --model: switch these heads off, LAYER.HEAD comma-separated (0.1,2.3)");
  app.add_option("--ablate", o.ablate, "With --heads-off: a switched-off head's output becomes zero or its mean")
      ->check(CLI::IsMember({"zero", "mean"}));
  app.add_option("--model-tab", o.model_tab,
                 "With --model: overview (every head), heads (one layer's head view), lens (the logit lens) or "
                 "attribution (each head's part of the top guess's logit), patching (clean against --corrupted) or "
                 "quantization (against --beside)")
      ->check(CLI::IsMember({"overview", "heads", "lens", "attribution", "patching", "quantization"}));
  app.add_option("--beside", o.model_beside,
                 "With --model: compare each head's attention with this same model at higher precision (a GGUF in "
                 "F16 or F32, or the folder), in the Quantization tab; with --layer, open that layer A against B");
  app.add_option("--corrupted", o.model_corrupted,
                 "With --model: patch the text (clean) against this corrupted prompt of as many tokens, in the "
                 "Patching tab; with --layer, open that layer clean against corrupted in the compare view");
  app.add_option("--patch-answer", o.patch_answer, "With --corrupted: the right next token, as text (one token; default: the clean run's top guess)");
  app.add_option("--patch-wrong", o.patch_wrong, "With --corrupted: the wrong next token, as text (one token; default: the corrupted run's top guess)");
  app.add_option("--patch-site", o.patch_site, "With --corrupted: patch each head's output or the stream at each layer and token")
      ->check(CLI::IsMember({"heads", "positions"}));
  app.add_option("--model-layer", o.model_layer, "With --model: the head view's layer (from 0)")->check(CLI::Range(0, 100000));
  app.add_option("--measure", o.head_measure, "With --model: what frames (and with --sort-heads orders) the overview's heads")
      ->check(CLI::IsMember({"previous", "first", "self", "entropy"}));
  app.add_flag("--sort-heads", o.sort_heads, "With --model: order each layer's heads by --measure, highest first");
  app.add_flag("--show-switched-off", o.show_switched_off,
               "With --heads-off: the overview shows the weights with those heads switched off");
  app.add_option("--config-dir", o.config_dir, "Keep settings, progress and autosaves here instead of the config folder");
  app.add_flag("--test", o.test_mode, "Test mode: never read or write the user's settings or progress");
  app.add_option("--colormap", signed_map, "Colormap of signed values: " + colourmap_names())->check(CLI::IsMember(maps));
  app.add_option("--prob-colormap", probability_map, "Colormap of probabilities (weights): " + colourmap_names())
      ->check(CLI::IsMember(maps));
  app.add_option("--theme", theme, "light, dark or high-contrast")->check(CLI::IsMember({"light", "dark", "high-contrast"}));
  app.add_option("--contrast", contrast,
                 "Colour range per grid, global (shared by every grid of a kind), per row, or p99 (per grid, ending at "
                 "the 99th percentile; the cells beyond are marked)")
      ->check(CLI::IsMember({"grid", "global", "row", "p99"}));
  app.add_flag("--log-weights", o.log_weights, "Colour probabilities on a log scale (from 1e-6)");
  app.add_flag("--shared-range", o.shared_range, "Grids of one stage (every head's weights) share one colour range");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version exit 0; every bad argument exits 2, as bad input
    // does everywhere else (CLI11's own codes, such as 105, mean nothing to a
    // script), with one line: CLI11's exit() adds "Run with --help...".
    if (e.get_exit_code() == 0) return app.exit(e);
    std::fprintf(stderr, "attnviz: %s (see 'attnviz --help')\n", e.what());
    return 2;
  }
  if (!size.empty()) {
    o.size_given = true;
    char x = 0;
    std::istringstream in(size);
    const bool parsed = (in >> o.width >> x >> o.height) && (x == 'x' || x == 'X') && in.peek() == EOF;
    // Slides have their own range, said as such (a window's is wider).
    if (parsed && !o.export_slides.empty()) {
      if (const std::string problem = slide_size_problem(o.width, o.height); !problem.empty()) {
        std::fprintf(stderr, "attnviz: --size: %s\n", problem.c_str());
        return 2;
      }
    } else if (!parsed || o.width < 200 || o.height < 150 || o.width > 8192 || o.height > 8192) {
      std::fprintf(stderr, "attnviz: --size expects WxH, e.g. 1600x1000 (got \"%s\")\n", size.c_str());
      return 2;
    }
  }
  if (!export_size.empty()) {
    const std::optional<PictureSize> parsed = parse_picture_size(export_size);
    if (!parsed) {
      std::fprintf(stderr, "attnviz: --export-size expects WxH, e.g. 1920x1080 (got \"%s\")\n", export_size.c_str());
      return 2;
    }
    if (parsed->width < kMinPictureSide || parsed->height < kMinPictureSide) {  // 0x0 would mean "the window's size"
      std::fprintf(stderr, "attnviz: --export-size: %s is too small (%d to %d pixels a side)\n", export_size.c_str(),
                   kMinPictureSide, kMaxPictureSide);
      return 2;
    }
    o.export_width = parsed->width;
    o.export_height = parsed->height;
  }
  if (head >= -1) o.head = head;
  if (open_layer >= 0) o.model_open_layer = open_layer;
  if (!heads_off.empty()) {
    std::stringstream list(heads_off);
    std::string item;
    while (std::getline(list, item, ',')) {
      int layer = 0, h = 0, used = 0;
      if (std::sscanf(item.c_str(), "%d.%d%n", &layer, &h, &used) != 2 || used != static_cast<int>(item.size()) || layer < 0 || h < 0) {
        std::fprintf(stderr, "attnviz: --heads-off expects LAYER.HEAD, comma-separated, e.g. 0.1,2.3 (got \"%s\")\n", item.c_str());
        return 2;
      }
      o.heads_off.emplace_back(layer, h);
    }
  }
  const bool model_companion = !o.model_text.empty() || o.keep_first_tokens || o.model_open_layer || !o.heads_off.empty() || !o.ablate.empty() ||
                               !o.model_tab.empty() || o.model_layer >= 0 || !o.head_measure.empty() || o.sort_heads ||
                               o.show_switched_off || !o.model_corrupted.empty() || !o.patch_site.empty() ||
                               !o.patch_answer.empty() || !o.patch_wrong.empty() || !o.model_beside.empty();
  if (model_companion && o.model_dir.empty()) {
    std::fprintf(stderr, "attnviz: --text, --keep-first-tokens, --layer, --heads-off, --ablate, --model-tab, --model-layer, --measure, "
                         "--sort-heads, --show-switched-off, --corrupted, --patch-* and --beside go with --model DIR\n");
    return 2;
  }
  if (o.show_switched_off && o.heads_off.empty()) {
    std::fprintf(stderr, "attnviz: --show-switched-off needs --heads-off (which heads to switch off)\n");
    return 2;
  }
  if (time >= 0) o.time = time;
  if (!inspect.empty()) {
    o.inspect = parse_inspect(inspect);
    if (!o.inspect) {
      std::fprintf(stderr, "attnviz: --inspect expects STAGE:HEAD:ROW:COL, e.g. weights:0:2:1 (got \"%s\")\n",
                   inspect.c_str());
      return 2;
    }
  }
  if (!flash_blocks.empty()) {
    o.flash_blocks = parse_int_pair(flash_blocks, 1);
    if (!o.flash_blocks) {
      std::fprintf(stderr, "attnviz: --flash-blocks expects R,C, two whole numbers from 1, e.g. 2,4 (got \"%s\")\n", flash_blocks.c_str());
      return 2;
    }
  }
  if (!flash_tile.empty()) {
    o.flash_tile = parse_int_pair(flash_tile, 0);
    if (!o.flash_tile) {
      std::fprintf(stderr, "attnviz: --flash-tile expects I,J, two whole numbers from 0, e.g. 1,2 (got \"%s\")\n", flash_tile.c_str());
      return 2;
    }
  }
  if (!go_to.empty()) {
    o.go_to = parse_inspect(go_to);
    if (!o.go_to) {
      std::fprintf(stderr, "attnviz: --go-to expects STAGE:HEAD:ROW:COL, e.g. weights:0:700:650 (got \"%s\")\n", go_to.c_str());
      return 2;
    }
  }
  if (!signed_map.empty()) o.signed_map = colourmap_named(signed_map);
  if (!probability_map.empty()) o.probability_map = colourmap_named(probability_map);
  if (!theme.empty()) o.theme = theme_named(theme);
  if (!contrast.empty()) o.contrast = contrast_named(contrast);
  // A headless form never writes over a file it reads (`attnviz s.json
  // --export s.json` replaced the scenario with a picture).
  const std::pair<const char*, const std::string*> outputs[] = {{"--export", &o.export_path},
                                                                {"--screenshot", &o.screenshot},
                                                                {"--dump-state", &o.dump_state},
                                                                {"--dump-layout", &o.dump_layout}};
  for (const auto& [option, output] : outputs)
    for (const std::string* input : {&o.file, &o.lesson, &o.compare_with, &o.train_model})
      if (!output->empty() && !input->empty() && attn::io::same_file(*output, *input)) {
        std::fprintf(stderr, "attnviz: %s %s is an input file (%s); nothing was written (choose another output file)\n",
                     option, output->c_str(), input->c_str());
        return 2;
      }
  if (!o.class_session && (!o.class_bind.empty() || app.count("--port") > 0 || !o.class_resume.empty() || !o.class_code.empty())) {
    std::fprintf(stderr, "attnviz: --bind, --port, --class-code and --class-resume are for a class session; add --class\n");
    return 2;
  }
  o.screenshot_first_grids = screenshot_at == "first-grids";
  o.granularity = granularity == "cell" ? Granularity::Cell : granularity == "row" ? Granularity::Row : Granularity::Stage;
  return std::nullopt;
}

}  // namespace viz
