// The open file changed under the app, driven with xdotool under Xvfb: two
// attnviz windows on one file, and a file another program rewrites. Nothing
// is lost: the second Save asks instead of writing over the first window's
// edit, Reload and compare keeps the user's version one Ctrl+Z away, and
// Overwrite writes only when asked. Every wait is on the state the app dumps.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <functional>

#include "attn/io/scenario_file.hpp"
#include "ui_support.hpp"

using namespace ui_test;

namespace {

namespace fs = std::filesystem;

// A copy of the default scene, fresh for each test.
std::string shared_copy(const std::string& name) {
  const fs::path dir = temp_path("disk_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path path = dir / "shared.json";
  fs::copy_file(std::string(ATTNVIZ_ASSETS_DIR) + "/scenarios/default.json", path);
  return path.string();
}

double x_on_disk(const std::string& path, int r, int c) { return attn::io::load_scenario(path).scenario.x(r, c); }

// Another program saves the file with one value changed.
void rewrite_outside(const std::string& path, int r, int c, double v) {
  attn::io::ScenarioFile f = attn::io::load_scenario(path);
  f.scenario.x(r, c) = v;
  attn::io::save_scenario(path, f);
}

nlohmann::json layout_with(const RunningApp& app, const std::string& widget) {
  return wait_for(app.layout, [&](const nlohmann::json& j) { return j["frame"] >= 3 && j["widgets"].contains(widget); });
}

// Both windows sit at the screen's top left: the one the test works in is
// raised and given the keyboard (there is no window manager under Xvfb).
void bring_forward(const RunningApp& app) {
  std::string ids;
  for (int i = 0; i < 100 && ids.empty(); ++i) {
    run(std::string(XDOTOOL) + " search --onlyvisible --pid " + std::to_string(app.pid) + " 2>/dev/null", &ids);
    if (ids.empty()) sleep_ms(50);
  }
  REQUIRE_MESSAGE(!ids.empty(), "no window of pid " << app.pid);
  const std::string id = ids.substr(0, ids.find('\n'));
  drive(app);
  xdo("windowraise " + id);
  xdo("windowfocus " + id);
}

// Types `value` into X[r][c] in the editor and presses Enter.
void type_into_x(const RunningApp& app, int r, int c, const std::string& value) {
  const std::string widget = "x[" + std::to_string(r) + "," + std::to_string(c) + "]";
  REQUIRE_MESSAGE(layout_with(app, widget).is_object(), "no " << widget << " in the layout");
  REQUIRE_MESSAGE(click_until(app, widget, [](const nlohmann::json& j) { return j["typing"] == true; }, true).is_object(),
                  widget << " never took the keyboard");
  chord("ctrl", "a");
  type_text(value);
  key("Return");
  const double v = std::stod(value);
  REQUIRE_MESSAGE(wait_for(app.state, [&](const nlohmann::json& j) { return j["scenario"]["x"][r][c] == v; }).is_object(),
                  widget << " never became " << value);
}

// Ctrl+S with the pointer over the canvas (no field has the keyboard).
void save_with_keys() {
  xdo("mousemove 800 500");
  chord("ctrl", "s");
}

}  // namespace

TEST_SUITE("disk") {
  TEST_CASE("ui: two windows save one file: the second Save asks, Reload and compare keeps both, Ctrl+Z brings B's back") {
    const std::string path = shared_copy("two_windows");
    const double x01 = x_on_disk(path, 0, 1), x00 = x_on_disk(path, 0, 0);
    RunningApp a("\"" + path + "\"", "disk_a");
    REQUIRE(a.first_state().is_object());
    RunningApp b("\"" + path + "\"", "disk_b");
    REQUIRE(b.first_state().is_object());

    bring_forward(a);
    type_into_x(a, 0, 0, "1.5");
    save_with_keys();
    REQUIRE_MESSAGE(wait_for(a.state, [](const nlohmann::json& j) { return j["dirty"] == false; }).is_object(),
                    "window A did not save");
    CHECK(x_on_disk(path, 0, 0) == 1.5);

    bring_forward(b);
    // B hears of A's save while its own document is still clean.
    const nlohmann::json told = wait_for(b.state, [](const nlohmann::json& j) { return j["disk"]["outside"] == "changed"; });
    REQUIRE_MESSAGE(told.is_object(), "window B was not told that the file changed on disk");
    type_into_x(b, 0, 1, "2.5");
    save_with_keys();
    const nlohmann::json asked = wait_for(b.state, [](const nlohmann::json& j) { return j["disk"]["save_conflict"] == true; });
    REQUIRE_MESSAGE(asked.is_object(), "window B's Save wrote over A's edit without asking");
    CHECK(x_on_disk(path, 0, 0) == 1.5);  // A's edit is still in the file
    CHECK(x_on_disk(path, 0, 1) == x01);

    const nlohmann::json reloaded = click_until(b, "conflict_reload", [](const nlohmann::json& j) {
      return j["scenario"]["x"][0][0] == 1.5 && j["compare"]["open"] == true;
    });
    REQUIRE_MESSAGE(reloaded.is_object(), "Reload and compare did not show the file's version");
    CHECK(reloaded["dirty"] == false);
    CHECK(reloaded["compare"]["label_a"] == "your edits");
    CHECK(reloaded["scenario"]["x"][0][1] == x01);

    xdo("mousemove 800 500");
    chord("ctrl", "z");
    const nlohmann::json back = wait_for(b.state, [](const nlohmann::json& j) { return j["scenario"]["x"][0][1] == 2.5; });
    REQUIRE_MESSAGE(back.is_object(), "Ctrl+Z did not bring B's edit back after the reload");
    CHECK(back["scenario"]["x"][0][0] == x00);
    CHECK(back["dirty"] == true);
    CHECK(x_on_disk(path, 0, 0) == 1.5);  // nothing written by any of it
  }

  TEST_CASE("ui: a file another program rewrites: Reload when clean, with edits, Save asks and Overwrite writes") {
    const std::string path = shared_copy("outside");
    RunningApp app("\"" + path + "\"", "disk_outside");
    REQUIRE(app.first_state().is_object());
    bring_forward(app);

    rewrite_outside(path, 0, 0, 1.5);
    REQUIRE_MESSAGE(wait_for(app.state, [](const nlohmann::json& j) { return j["disk"]["outside"] == "changed"; }).is_object(),
                    "the app did not notice the file change");
    const nlohmann::json reloaded = click_until(app, "disk_reload", [](const nlohmann::json& j) {
      return j["scenario"]["x"][0][0] == 1.5 && j["disk"]["outside"] == "same";
    });
    REQUIRE_MESSAGE(reloaded.is_object(), "Reload did not read the file again");
    CHECK(reloaded["dirty"] == false);
    CHECK(reloaded["compare"]["open"] == false);

    type_into_x(app, 0, 1, "2.5");
    rewrite_outside(path, 1, 0, 0.75);
    REQUIRE(wait_for(app.state, [](const nlohmann::json& j) { return j["disk"]["outside"] == "changed"; }).is_object());
    save_with_keys();
    REQUIRE_MESSAGE(wait_for(app.state, [](const nlohmann::json& j) { return j["disk"]["save_conflict"] == true; }).is_object(),
                    "Save wrote over the other program's change without asking");
    CHECK(x_on_disk(path, 1, 0) == 0.75);
    const nlohmann::json written = click_until(app, "conflict_overwrite", [](const nlohmann::json& j) { return j["dirty"] == false; });
    REQUIRE_MESSAGE(written.is_object(), "Overwrite did not save");
    CHECK(x_on_disk(path, 0, 1) == 2.5);
    CHECK(x_on_disk(path, 1, 0) != 0.75);  // written over, as asked
    CHECK(written["disk"]["save_conflict"] == false);
  }

  TEST_CASE("ui: when the autosave copy cannot be written, the window says crash recovery is off") {
    const std::string path = shared_copy("autosave_blocked");
    const fs::path config = fs::path(path).parent_path() / "config";
    std::ofstream(config.string()) << "a file where the config folder would be";  // every write fails, as on a full disk
    RunningApp app("--config-dir \"" + config.string() + "\" \"" + path + "\"", "disk_autosave");
    REQUIRE(app.first_state().is_object());
    bring_forward(app);
    type_into_x(app, 0, 1, "2.5");
    const nlohmann::json told = wait_for(app.state, [](const nlohmann::json& j) {
      for (const auto& n : j["notices"])
        if (n.get<std::string>().find("Crash recovery is off") != std::string::npos) return true;
      return false;
    });
    CHECK_MESSAGE(told.is_object(), "the failed autosave was not said in the window");
  }

  TEST_CASE("ui: notices last until seen: damaged settings over the Welcome page, damaged progress with --lesson") {
    const fs::path config = temp_path("disk_notices_config");
    fs::remove_all(config);
    fs::create_directories(config);
    std::ofstream((config / "settings.json").string()) << "{\"theme\": ";
    std::ofstream((config / "progress.json").string()) << "[1, 2";
    auto has_notice = [](const std::string& words) {
      return [words](const nlohmann::json& j) {
        for (const auto& n : j["notices"])
          if (n.get<std::string>().find(words) != std::string::npos) return true;
        return false;
      };
    };
    {
      // No file: the Welcome page opens, and says what happened to the settings.
      RunningApp app("--config-dir \"" + config.string() + "\"", "disk_notices_welcome");
      REQUIRE_MESSAGE(wait_for(app.state, has_notice("Settings")).is_object(), "no settings notice");
      bring_forward(app);
      const nlohmann::json gone = click_until(app, "notices_ok", [](const nlohmann::json& j) { return j["notices"].empty(); });
      CHECK_MESSAGE(gone.is_object(), "the Welcome page shows no notice with OK to dismiss");
    }
    std::ofstream((config / "progress.json").string()) << "[1, 2";
    const std::string lesson = std::string(ATTNVIZ_ASSETS_DIR) + "/lessons/01_attention_from_scratch.json";
    RunningApp app("--config-dir \"" + config.string() + "\" --lesson \"" + lesson + "\"", "disk_notices_lesson");
    const nlohmann::json shown = wait_for(app.state, [&](const nlohmann::json& j) {
      return j.contains("lesson") && has_notice("Lesson progress")(j);
    });
    CHECK_MESSAGE(shown.is_object(), "the damaged-progress notice is not shown once the lesson is open");
  }
}
