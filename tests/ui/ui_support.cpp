// UI test helpers: process running with popen, PNG and JSON loading, and
// one headless frame of the app.
#include "ui_support.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
#include <chrono>
#include <csignal>

#include <doctest/doctest.h>
#include <stb_image.h>
#include <sys/wait.h>

#include "attn/io/scenario_file.hpp"
#include "model_names.hpp"
#include "model/colour/colour_scale.hpp"
#include "model/settings/theme.hpp"
#include "model/document/scenario_edit.hpp"

namespace ui_test {

viz::Rgba Image::at(int x, int y) const {
  if (x < 0 || y < 0 || x >= width || y >= height) return {0, 0, 0, 0};
  const unsigned char* p = rgb.data() + (static_cast<size_t>(y) * static_cast<size_t>(width) + static_cast<size_t>(x)) * 3;
  return {p[0], p[1], p[2], 255};
}

Image load_png(const std::string& path) {
  Image img;
  int channels = 0;
  unsigned char* data = stbi_load(path.c_str(), &img.width, &img.height, &channels, 3);
  if (!data) {
    img.width = img.height = 0;
    return img;
  }
  img.rgb.assign(data, data + static_cast<size_t>(img.width) * static_cast<size_t>(img.height) * 3);
  stbi_image_free(data);
  return img;
}

nlohmann::json load_json(const std::string& path) {
  std::ifstream in(path);
  if (!in) return nullptr;
  try {
    return nlohmann::json::parse(in);
  } catch (const std::exception&) {
    return nullptr;
  }
}

int run(const std::string& command, std::string* out) {
  std::FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return -1;
  std::string text;
  char buf[4096];
  while (size_t n = std::fread(buf, 1, sizeof buf, pipe)) text.append(buf, n);
  const int status = pclose(pipe);
  if (out) *out = text;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string attnviz(const std::string& args) { return std::string("\"") + ATTNVIZ_BIN + "\" " + args; }

std::string temp_path(const std::string& name) { return std::string(UI_TEST_TMP) + "/" + name; }

std::vector<std::string> shipped_lessons() {
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(std::string(ATTNVIZ_ASSETS_DIR) + "/lessons"))
    if (e.path().extension() == ".json") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

int distance(viz::Rgba a, viz::Rgba b) {
  const int dr = std::abs(a.r - b.r), dg = std::abs(a.g - b.g), db = std::abs(a.b - b.b);
  return std::max(dr, std::max(dg, db));
}

const nlohmann::json* grid_of(const nlohmann::json& layout, const std::string& id, int head) {
  if (!layout.is_object() || !layout.contains("grids")) return nullptr;
  for (const nlohmann::json& g : layout["grids"])
    if (g["id"] == id && g["head"] == head) return &g;
  return nullptr;
}

void cell_point(const nlohmann::json& g, int r, int c, double fx, double fy, int* x, int* y) {
  // Cells are cell_w x cell_h (not square when a long axis is shortened).
  *x = static_cast<int>(g["x0"].get<double>() + (c + fx) * g["cell_w"].get<double>());
  *y = static_cast<int>(g["y0"].get<double>() + (r + fy) * g["cell_h"].get<double>());
}

void sleep_ms(int ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }

namespace {

// The layout dump of the app the input helpers drive (the newest
// RunningApp's), written at the end of each frame it draws.
std::string g_driven_layout;

// The frame number in a layout dump, or -1 (none yet, or being replaced).
int dumped_frame(const std::string& path) {
  std::ifstream in(path);
  if (!in) return -1;
  std::stringstream text;
  text << in.rdbuf();
  const std::string s = text.str();
  const std::size_t at = s.find("\"frame\":");
  return at == std::string::npos ? -1 : std::atoi(s.c_str() + at + 8);
}

// An X event, then a pause of at least `pause_ms` that lasts until the app
// has drawn two frames since just before the event (up to a second more).
// An idle app wakes for the event and draws three frames in a few tens of
// milliseconds, the first of them with the event seen; an app drawing all
// the time has begun a frame after the event within the two. Dear ImGui 1.86
// reads the mouse and keys once a frame, so an event pair (press and
// release, two clicks) with no frame between is read as one: a fixed pause
// alone was too short whenever the machine was loaded. The frame is read
// before the event: read after it, an idle app may already have drawn the
// frames it was going to. Without a dump (no app, or no trace drawn yet) the
// pause alone.
void send_and_wait(const std::string& args, int pause_ms = 60, int limit_ms = 1000, int frames = 2) {
  const int before = g_driven_layout.empty() ? -1 : dumped_frame(g_driven_layout);
  run(std::string(XDOTOOL) + " " + args);
  sleep_ms(pause_ms);
  if (before < 0) return sleep_ms(std::max(0, 60 - pause_ms));
  for (int waited = 0; waited < limit_ms && dumped_frame(g_driven_layout) < before + frames; waited += 5) sleep_ms(5);
}

}  // namespace

// A key is never held past 0.26 s, whatever the frames do: ImGui repeats a
// key held 0.275 s.
void key(const std::string& k) {
  send_and_wait("keydown " + k, 60, 200);
  send_and_wait("keyup " + k);
}

void chord(const std::string& modifier, const std::string& k) {
  send_and_wait("keydown " + modifier, 60, 200);
  key(k);
  send_and_wait("keyup " + modifier);
}

void xdo(const std::string& args) { send_and_wait(args); }

void double_click() {
  // The second click as soon as one frame has passed: ImGui counts two
  // clicks as one double-click only within 0.3 s of its own clock, so on a
  // loaded machine, where a frame can take 150 ms, two frames between the
  // clicks are too many. (An app drawing all the time may then see both in
  // one frame: the tests try a missed double-click again.)
  send_and_wait("click 1", 0, 250, 1);
  send_and_wait("click 1");
}

void type_text(const std::string& text) {
  for (char c : text) {
    const std::string name = c == '.'   ? "period"
                             : c == '-' ? "minus"
                             : c == '+' ? "plus"
                             : c == '_' ? "underscore"
                             : c == '/' ? "slash"
                                        : std::string(1, c);
    key(name);
  }
}

nlohmann::json wait_for(const std::string& path, const std::function<bool(const nlohmann::json&)>& ok, int timeout_ms) {
  for (int waited = 0; waited < timeout_ms; waited += 50) {
    nlohmann::json j = load_json(path);
    if (j.is_object() && ok(j)) return j;
    sleep_ms(50);
  }
  return nullptr;
}

RunningApp::RunningApp(const std::string& args, const std::string& name, bool isolated_config) {
  state = temp_path(name + "_state.json");
  layout = temp_path(name + "_layout.json");
  std::remove(state.c_str());
  std::remove(layout.c_str());
  std::string settings = "--test";
  if (isolated_config) {
    const std::string config = temp_path(name + "_config");
    std::filesystem::remove_all(config);
    std::filesystem::create_directories(config);
    settings = "--config-dir \"" + config + "\"";
  }
  std::string out;
  run("sh -c '" + attnviz(settings + " --size 1400x900 --dump-state \"" + state + "\" --dump-layout \"" + layout + "\" " + args) +
          " >/dev/null 2>&1 & echo $!'",
      &out);
  pid = std::atoi(out.c_str());
  drive(*this);
}

void drive(const RunningApp& app) { g_driven_layout = app.layout; }

RunningApp::~RunningApp() {
  if (g_driven_layout == layout) g_driven_layout.clear();
  if (pid <= 0) return;
  kill(pid, SIGKILL);
  // Gone before the next test starts, so it cannot write a late dump.
  for (int i = 0; i < 100 && alive(); ++i) sleep_ms(20);
}

// The app is started through sh, so it is not our child: ask the kernel
// whether the process still exists (init reaps it when it dies).
bool RunningApp::alive() const { return pid > 0 && kill(pid, 0) == 0; }

nlohmann::json RunningApp::first_state() const {
  return wait_for(state, [](const nlohmann::json&) { return true; });
}

std::string default_lesson_with_tokens(int n, const std::string& name) {
  attn::io::ScenarioFile file = attn::io::load_scenario(std::string(ATTNVIZ_ASSETS_DIR) + "/scenarios/default.json");
  viz::edit::set_n_tokens(file.scenario, viz::edit::Sequence::Queries, n);
  viz::edit::randomise(file.scenario, 5);
  const std::string path = temp_path(name);
  attn::io::save_scenario(path, file);
  return path;
}

Shot shoot(const std::string& scenario, const std::string& name, const std::string& extra, int width, int height) {
  Shot s;
  const std::string png = temp_path(name + ".png"), layout = temp_path(name + "_layout.json");
  std::remove(png.c_str());
  std::remove(layout.c_str());
  std::string out;
  const std::string size = std::to_string(width) + "x" + std::to_string(height);
  const int code = run(attnviz("\"" + scenario + "\" --screenshot \"" + png + "\" --dump-layout \"" + layout +
                               "\" --size " + size + " " + extra),
                       &out);
  REQUIRE_MESSAGE(code == 0, "attnviz failed: " << out);
  s.image = load_png(png);
  REQUIRE_MESSAGE(s.image.ok(), "no PNG written at " << png);
  CHECK(s.image.width == width);
  CHECK(s.image.height == height);
  s.layout = load_json(layout);
  REQUIRE_MESSAGE(s.layout.is_object(), "no layout dump at " << layout);
  s.trace = attn::compute_trace(attn::io::load_scenario(scenario).scenario);
  return s;
}

viz::ColourScale scale_of(const attn::Trace& trace, const attn::Stage& stage, const viz::ColourOptions& colour) {
  return viz::colour_scales(trace, colour)[static_cast<size_t>(trace.index_of(stage.ref()))];
}

bool masked_look(const attn::Stage& s, int r, int c) {
  const double v = s.value(r, c);
  return !std::isfinite(v) || (s.is_blocked(r, c) && s.kind == attn::ValueKind::Probability && v == 0);
}

void check_grid_colours(const Shot& shot, const std::string& id, int head, double fx, double fy, const viz::ColourOptions& colour) {
  const attn::Stage* stage = shot.trace.find_named(id, head);
  REQUIRE_MESSAGE(stage != nullptr, "no stage " << id);
  const nlohmann::json* grid = grid_of(shot.layout, id, head);
  REQUIRE_MESSAGE(grid != nullptr, "stage " << id << " head " << head << " not in the layout dump");
  CHECK((*grid)["rows"] == stage->value.rows());  // not transposed
  CHECK((*grid)["cols"] == stage->value.cols());
  const viz::ColourScale scale = scale_of(shot.trace, *stage, colour);
  const viz::ThemePalette& palette = viz::palette(colour.theme);
  int worst = 0, worst_r = -1, worst_c = -1, bad = 0;
  for (int r = 0; r < stage->value.rows(); ++r)
    for (int c = 0; c < stage->value.cols(); ++c) {
      int x = 0, y = 0;
      cell_point(*grid, r, c, fx, fy, &x, &y);
      const viz::Rgba got = shot.image.at(x, y);
      int d;
      if (masked_look(*stage, r, c)) d = std::min(distance(got, palette.masked_fill), distance(got, palette.hatch));
      else d = distance(got, viz::colour_of(scale, r, stage->value(r, c)));
      if (d > kColourTolerance) ++bad;
      if (d > worst) worst = d, worst_r = r, worst_c = c;
    }
  INFO("stage " << id << " head " << head << ": worst cell (" << worst_r << ", " << worst_c << ") off by " << worst);
  CHECK(bad == 0);
}

std::pair<int, int> centre_of(const nlohmann::json& layout, const std::string& widget) {
  const nlohmann::json& r = layout["widgets"][widget];
  return {static_cast<int>((r[0].get<double>() + r[2].get<double>()) / 2), static_cast<int>((r[1].get<double>() + r[3].get<double>()) / 2)};
}

// The layout once `widget` is there and has not moved between two reads: a
// menu is placed only after its first frame, so its first rectangle can be stale.
nlohmann::json settled(const std::string& layout_path, const std::string& widget, int timeout_ms) {
  // Unmoved over two frames drawn after it was first seen there (a dialog is
  // placed on its first frames; under a sanitizer a frame can outlast two
  // reads), or over 300 ms in which the app drew nothing (it is idle: what
  // it shows is final).
  nlohmann::json last;
  int since_frame = -1, idle_ms = 0;
  return wait_for(
      layout_path,
      [&](const nlohmann::json& j) {
        if (!j["widgets"].contains(widget)) return false;
        const int frame = j.value("frame", 0);
        if (last != j["widgets"][widget]) {
          last = j["widgets"][widget];
          since_frame = frame;
          idle_ms = 0;
          return false;
        }
        idle_ms += 50;
        return frame >= since_frame + 2 || idle_ms >= 300;
      },
      timeout_ms);
}

nlohmann::json click_until(const RunningApp& app, const std::string& widget,
                           const std::function<bool(const nlohmann::json&)>& done, bool ctrl) {
  for (int attempt = 0; attempt < 3; ++attempt) {
    const nlohmann::json layout = settled(app.layout, widget);
    if (!layout.is_object()) return nullptr;
    const auto [x, y] = centre_of(layout, widget);
    xdo("mousemove " + std::to_string(x) + " " + std::to_string(y));
    if (ctrl) xdo("keydown ctrl");
    xdo("click 1");
    if (ctrl) xdo("keyup ctrl");
    nlohmann::json j = wait_for(app.state, done, 5000);
    if (j.is_object()) return j;
  }
  return nullptr;
}

namespace {
bool shows(const std::string& layout_path, const std::string& widget) {
  const nlohmann::json j = load_json(layout_path);
  return j.is_object() && j["widgets"].contains(widget);
}
}  // namespace

void hover_widget(const nlohmann::json& layout, const std::string& widget) {
  const auto [x, y] = centre_of(layout, widget);
  xdo("mousemove " + std::to_string(x) + " " + std::to_string(y));
}

void click_widget(const nlohmann::json& layout, const std::string& widget) {
  hover_widget(layout, widget);
  xdo("click 1");
}

void click_file_menu(const RunningApp& app, const std::string& item) {
  const std::string entry = "menu:File/" + item;
  nlohmann::json menu;
  for (int attempt = 0; attempt < 3 && !menu.is_object(); ++attempt) {
    const nlohmann::json bar = settled(app.layout, "menu:File");
    REQUIRE_MESSAGE(bar.is_object(), "no File menu");
    // A retry leaves a menu open after a lost click on its item: a click on
    // the bar would close it.
    if (attempt == 0 || !shows(app.layout, entry)) click_widget(bar, "menu:File");
    menu = settled(app.layout, entry, 10000);
  }
  REQUIRE_MESSAGE(menu.is_object(), "the File menu did not open after 3 clicks");
  click_widget(menu, entry);
}

nlohmann::json click_file_menu_until(const RunningApp& app, const std::string& item,
                                     const std::function<bool(const nlohmann::json&)>& done) {
  for (int attempt = 0; attempt < 3; ++attempt) {
    click_file_menu(app, item);
    const nlohmann::json state = wait_for(app.state, done, 8000);
    if (state.is_object()) return state;
  }
  return nullptr;
}

void export_through_dialog(const RunningApp& app, const std::string& name) {
  click_file_menu(app, "Export");
  nlohmann::json dialog = settled(app.layout, "export_ok");
  if (!dialog.is_object()) {  // the click on Export was lost under load
    click_file_menu(app, "Export");
    dialog = settled(app.layout, "export_ok");
  }
  REQUIRE_MESSAGE(dialog.is_object(), "the Export dialog did not open");
  click_widget(dialog, "export_path");
  chord("ctrl", "a");
  type_text(name);
  const nlohmann::json typed = settled(app.layout, "export_ok");
  click_widget(typed, "export_ok");
}


}  // namespace ui_test
