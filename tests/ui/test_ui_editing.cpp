// Interactive tests driven by xdotool under Xvfb: type a number into an X
// cell of the editor and Alt+drag an X cell on the canvas; the state dump
// must show the new input and different attention weights, and Ctrl+Z must
// bring the old ones back. Also: without a display, a clear message.
#include <doctest/doctest.h>

#include <chrono>
#include <csignal>
#include <thread>

#include "ui_support.hpp"

using namespace ui_test;

namespace {

void sleep_ms(int ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }

// xdotool with keys held ~50 ms: ImGui 1.86 can drop a press and release in one frame.
void key(const std::string& k) {
  run(std::string(XDOTOOL) + " keydown " + k);
  sleep_ms(60);
  run(std::string(XDOTOOL) + " keyup " + k);
  sleep_ms(60);
}

void xdo(const std::string& args) {
  run(std::string(XDOTOOL) + " " + args);
  sleep_ms(60);
}

// Waits until `ok(json)` holds for the JSON file at `path`.
template <class F>
nlohmann::json wait_for(const std::string& path, F ok, int timeout_ms = 8000) {
  for (int waited = 0; waited < timeout_ms; waited += 100) {
    nlohmann::json j = load_json(path);
    if (j.is_object() && ok(j)) return j;
    sleep_ms(100);
  }
  return nullptr;
}

struct RunningApp {
  int pid = 0;
  std::string state, layout;
  RunningApp() {
    state = temp_path("typing_state.json");
    layout = temp_path("typing_layout.json");
    std::remove(state.c_str());
    std::remove(layout.c_str());
    std::string out;
    run("sh -c '" + attnviz("--test --size 1400x900 --dump-state \"" + state + "\" --dump-layout \"" + layout + "\"") +
            " >/dev/null 2>&1 & echo $!'",
        &out);
    pid = std::atoi(out.c_str());
  }
  ~RunningApp() {
    if (pid > 0) kill(pid, SIGKILL);
  }
};

// Largest change between two dumped rows of weights.
double max_change(const nlohmann::json& a, const nlohmann::json& b) {
  double worst = 0;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) worst = std::max(worst, std::abs(a[i].get<double>() - b[i].get<double>()));
  return a.size() == b.size() ? worst : 1e9;
}

}  // namespace

TEST_SUITE("typing") {
  TEST_CASE("ui: typing a value into X updates the weights; Ctrl+Z restores them") {
    RunningApp app;
    REQUIRE(app.pid > 0);
    const nlohmann::json layout = wait_for(app.layout, [](const nlohmann::json& j) { return j["widgets"].contains("x[0,0]"); });
    REQUIRE_MESSAGE(layout.is_object(), "the app wrote no layout dump with the X editor cells");
    const nlohmann::json before = wait_for(app.state, [](const nlohmann::json&) { return true; });
    REQUIRE(before.is_object());
    const double x00 = before["scenario"]["x"][0][0].get<double>();
    CHECK(x00 != 3.0);

    const nlohmann::json& r = layout["widgets"]["x[0,0]"];
    const int cx = static_cast<int>((r[0].get<double>() + r[2].get<double>()) / 2);
    const int cy = static_cast<int>((r[1].get<double>() + r[3].get<double>()) / 2);
    xdo("mousemove " + std::to_string(cx) + " " + std::to_string(cy));
    sleep_ms(200);
    xdo("click --repeat 2 --delay 80 1");  // double-click: type into the field
    sleep_ms(200);
    run(std::string(XDOTOOL) + " keydown ctrl");
    key("a");
    run(std::string(XDOTOOL) + " keyup ctrl");
    key("3");
    key("Return");
    const nlohmann::json after = wait_for(app.state, [](const nlohmann::json& j) { return j["scenario"]["x"][0][0] == 3.0; });
    REQUIRE_MESSAGE(after.is_object(), "X[0][0] never became 3");
    CHECK(after["error"] == "");
    CHECK(after["dirty"] == true);
    CHECK(max_change(after["weights_row_last"], before["weights_row_last"]) > 1e-3);

    // Undo with the keyboard (focus the canvas first so no field has the keys).
    xdo("mousemove 800 450");
    xdo("click 3");
    run(std::string(XDOTOOL) + " keydown ctrl");
    key("z");
    run(std::string(XDOTOOL) + " keyup ctrl");
    const nlohmann::json undone =
        wait_for(app.state, [x00](const nlohmann::json& j) { return j["scenario"]["x"][0][0] == x00; });
    REQUIRE_MESSAGE(undone.is_object(), "Ctrl+Z did not restore X[0][0]");
    CHECK(max_change(undone["weights_row_last"], before["weights_row_last"]) < 1e-12);
    CHECK(undone["dirty"] == false);  // back at the opened state: no "(edited)"
  }

  TEST_CASE("ui: Alt+drag on an X cell of the canvas changes that input") {
    RunningApp app;
    REQUIRE(app.pid > 0);
    const nlohmann::json layout = wait_for(app.layout, [](const nlohmann::json& j) { return grid_of(j, "x", -1) != nullptr; });
    REQUIRE(layout.is_object());
    const nlohmann::json before = wait_for(app.state, [](const nlohmann::json&) { return true; });
    REQUIRE(before.is_object());
    int x = 0, y = 0;
    cell_point(*grid_of(layout, "x", -1), 1, 2, 0.5, 0.5, &x, &y);
    const double old = before["scenario"]["x"][1][2].get<double>();
    xdo("mousemove " + std::to_string(x) + " " + std::to_string(y));
    run(std::string(XDOTOOL) + " keydown alt");
    xdo("mousedown 1");
    for (int i = 1; i <= 8; ++i) xdo("mousemove " + std::to_string(x) + " " + std::to_string(y - 6 * i));
    xdo("mouseup 1");
    run(std::string(XDOTOOL) + " keyup alt");
    const nlohmann::json after =
        wait_for(app.state, [old](const nlohmann::json& j) { return j["scenario"]["x"][1][2].get<double>() > old + 0.01; });
    REQUIRE_MESSAGE(after.is_object(), "dragging up did not increase X[1][2]");
    CHECK(after["scenario"]["x"][0][0] == before["scenario"]["x"][0][0]);  // only that cell changed
  }
}

TEST_SUITE("typing") {
  TEST_CASE("ui: painting the mask with the mouse unblocks a causal cell") {
    RunningApp app;
    REQUIRE(app.pid > 0);
    const nlohmann::json layout = wait_for(app.layout, [](const nlohmann::json& j) { return grid_of(j, "weights", 0) != nullptr; });
    REQUIRE(layout.is_object());
    const nlohmann::json before = wait_for(app.state, [](const nlohmann::json&) { return true; });
    REQUIRE(before.is_object());
    CHECK(before["scenario"]["mask"] == "causal");
    CHECK(before["weights_row0"][3] == 0.0);  // "the" cannot see "down"
    int x = 0, y = 0;
    cell_point(*grid_of(layout, "weights", 0), 0, 3, 0.5, 0.5, &x, &y);
    xdo("mousemove " + std::to_string(x) + " " + std::to_string(y));
    key("m");
    xdo("click 1");
    const nlohmann::json after = wait_for(app.state, [](const nlohmann::json& j) { return j["scenario"]["mask"].is_array(); });
    REQUIRE_MESSAGE(after.is_object(), "the mask did not become a painted (custom) one");
    CHECK(after["scenario"]["mask"][0][3] == 0);
    CHECK(after["scenario"]["mask"][0][2] == 1);  // the rest of the causal mask is kept
    CHECK(after["weights_row0"][3].get<double>() > 0.0);
  }
}

TEST_SUITE("headless") {
  TEST_CASE("ui: without a display attnviz explains itself and exits non-zero") {
    std::string out;
    const int code = run("env -u DISPLAY -u WAYLAND_DISPLAY " + attnviz(""), &out);
    CHECK(code != 0);
    CHECK_MESSAGE(out.find("no display found") != std::string::npos, out);
    CHECK_MESSAGE(out.find("xvfb-run") != std::string::npos, out);
  }
}
