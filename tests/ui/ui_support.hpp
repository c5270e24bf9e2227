// Helpers for the UI tests: run attnviz (already under Xvfb), read the PNGs
// and JSON dumps it writes, and compare pixels with the colourmap. The tests
// compute the trace themselves, so a wrong colour, position or transposed
// grid in the app shows up as a mismatch.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "attn/compute/trace.hpp"
#include "model_names.hpp"
#include "model/colour/colourmap.hpp"
#include "model/colour/colour_scale.hpp"

namespace ui_test {

struct Image {
  int width = 0, height = 0;
  std::vector<unsigned char> rgb;
  bool ok() const { return width > 0; }
  viz::Rgba at(int x, int y) const;
};

Image load_png(const std::string& path);
nlohmann::json load_json(const std::string& path);

// Runs a shell command; returns its exit status (and its output in *out).
int run(const std::string& command, std::string* out = nullptr);

// "attnviz" plus arguments, with stderr folded into the output.
std::string attnviz(const std::string& args);

std::string temp_path(const std::string& name);

// Every shipped lesson file (assets/lessons/*.json), sorted: found in the
// folder, so a lesson added later is covered by every test that walks them.
std::vector<std::string> shipped_lessons();

// Largest absolute channel difference.
int distance(viz::Rgba a, viz::Rgba b);

// The grid entry of the layout dump for a stage, or null.
const nlohmann::json* grid_of(const nlohmann::json& layout, const std::string& id, int head);

// Screen point inside cell (r, c) of a dumped grid, at fraction (fx, fy) of the cell.
void cell_point(const nlohmann::json& grid, int r, int c, double fx, double fy, int* x, int* y);

void sleep_ms(int ms);

// Input through xdotool. After each X event the helpers wait for the driven
// app (the newest RunningApp) to draw two frames: ImGui 1.86 reads input once
// a frame, so a press and release, or two clicks, need a frame between them.
void key(const std::string& k);
// A key pressed with a modifier held, e.g. chord("ctrl", "z").
void chord(const std::string& modifier, const std::string& k);
void xdo(const std::string& args);
// Two clicks where the mouse is, with frames between them (well inside
// ImGui's 0.3 s for a double-click).
void double_click();
// Types text one key at a time ("12", "1e308").
void type_text(const std::string& text);

// Waits until `ok(json)` holds for the JSON file at `path`; null on timeout.
// Tests wait on state the app reports, never on a fixed time.
nlohmann::json wait_for(const std::string& path, const std::function<bool(const nlohmann::json&)>& ok,
                        int timeout_ms = 20000);

// attnviz running in the background (under the test's Xvfb) with state and
// layout dumps; killed when it goes out of scope.
struct RunningApp {
  int pid = 0;
  std::string state, layout;
  // `isolated_config`: instead of --test, a fresh --config-dir of its own
  // (for a class session, where --class --test means "no window").
  explicit RunningApp(const std::string& args = "", const std::string& name = "app", bool isolated_config = false);
  ~RunningApp();
  bool alive() const;
  // Waits for the first state dump the app writes.
  nlohmann::json first_state() const;
};
// The app the input helpers wait on (they wait for it to draw after each
// event): each RunningApp is, when started; a test with two names the one
// it types into.
void drive(const RunningApp& app);

// The default lesson with n query tokens (random values, fixed seed), saved
// as `name` in the test folder; returns its path. 80 tokens make 80 x 80
// score grids, past 64 x 64, so they are drawn through the colourmap shader.
std::string default_lesson_with_tokens(int n, const std::string& name);

// One headless frame: the PNG, the layout dump and the trace computed here.
struct Shot {
  Image image;
  nlohmann::json layout;
  attn::Trace trace;
};

// Runs attnviz on `scenario` with --screenshot and --dump-layout (files named
// after `name`) at width x height plus `extra` arguments; fails the test
// (REQUIRE) when it does not write them.
Shot shoot(const std::string& scenario, const std::string& name, const std::string& extra, int width = 1600,
           int height = 1000);

// How far a pixel may be from its expected colour: the texture path
// quantises through a 256-entry LUT.
constexpr int kColourTolerance = 10;

// The colour scale the app gives a stage of `trace` under `colour` options.
viz::ColourScale scale_of(const attn::Trace& trace, const attn::Stage& stage, const viz::ColourOptions& colour = {});

// Whether the app draws a cell with the masked look (hatched, not coloured).
bool masked_look(const attn::Stage& s, int r, int c);

// Every cell of a stage in the shot, at fraction (fx, fy) of the cell, against
// the colour computed here for `colour` options (the masked look for masked
// cells); also that the grid is rows x cols, not transposed.
void check_grid_colours(const Shot& shot, const std::string& id, int head, double fx, double fy,
                        const viz::ColourOptions& colour = {});

// A widget's centre in a layout dump's "widgets".
std::pair<int, int> centre_of(const nlohmann::json& layout, const std::string& widget);
// The layout once `widget` is there and has not moved between two reads: a
// menu is placed only after its first frame, so its first rectangle can be stale.
nlohmann::json settled(const std::string& layout_path, const std::string& widget, int timeout_ms = 20000);
void hover_widget(const nlohmann::json& layout, const std::string& widget);
// Clicks the middle of `widget` once it has settled (Ctrl+click on a drag
// field starts typing into it), then waits for `done` on the state dump;
// clicks again if the app missed it (a loaded machine can drop a click).
nlohmann::json click_until(const RunningApp& app, const std::string& widget,
                           const std::function<bool(const nlohmann::json&)>& done, bool ctrl = false);
void click_widget(const nlohmann::json& layout, const std::string& widget);
// Opens the File menu and clicks `item` ("Open", "Export": its probe name).
// A click lost under load (a sanitizer build on 2 cores) is made again.
void click_file_menu(const RunningApp& app, const std::string& item);
// The same, clicked again while `done` does not hold on the state dump (a
// loaded machine can drop the click on the menu's entry); the state that
// satisfied it, or null after three tries.
nlohmann::json click_file_menu_until(const RunningApp& app, const std::string& item,
                                     const std::function<bool(const nlohmann::json&)>& done);
// Opens File > Export..., types `name` over the suggested path and presses Export.
void export_through_dialog(const RunningApp& app, const std::string& name);

}  // namespace ui_test
