// Settings: a round trip through the file, a corrupt file set aside and reset
// (never fatal), bad fields reset one by one with a notice, the move from the
// old recent.txt, and the link to AppState. Every test works in its own
// temporary folder, never in the user's config.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "attn/io/text_file.hpp"
#include "model/settings/config_files.hpp"
#include "model/settings/settings.hpp"
#include "model/document/settings_state.hpp"

using namespace model;
namespace fs = std::filesystem;

namespace {

// A fresh, empty folder under the system's temporary folder.
fs::path fresh_dir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("attnviz_test_settings_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

void write_file(const fs::path& p, const std::string& text) { std::ofstream(p) << text; }

// The file's bytes as they are (io::read_text refuses text that cannot be JSON).
std::string raw_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

Settings unusual() {
  Settings s;
  s.colour.theme = Theme::HighContrast;
  s.colour.signed_map = ColourmapId::BlueWhiteOrange;
  s.colour.probability_map = ColourmapId::Viridis;
  s.colour.contrast = Contrast::Row;
  s.colour.log_weights = true;
  s.colour.shared_range = true;
  s.ui_scale_percent = 175;
  s.recent = {"/tmp/a.json", "/home/t/lesson/b.json"};
  s.last_lesson = "/opt/attnviz/lessons/softmax.json";
  return s;
}

}  // namespace

TEST_CASE("settings: every field survives a save and a fresh load") {
  const fs::path dir = fresh_dir("roundtrip");
  const std::string path = (dir / "settings.json").string();
  {
    SettingsStore store(path);
    CHECK(store.settings() == Settings{});  // no file yet: the defaults
    CHECK(store.take_problem().empty());
    store.save(unusual());
  }
  REQUIRE(fs::exists(path));
  SettingsStore again(path);
  CHECK(again.take_problem().empty());
  CHECK(again.settings() == unusual());
  CHECK(again.settings().ui_scale_percent == 175);
  // What is on disk is readable JSON with the names a person would type.
  const nlohmann::json j = nlohmann::json::parse(attn::io::read_text(path));
  CHECK(j["theme"] == "high-contrast");
  CHECK(j["colormap_probabilities"] == "viridis");
  CHECK(j["contrast"] == "row");
}

TEST_CASE("settings: a corrupt file is set aside and reset with a notice, never fatal") {
  const fs::path dir = fresh_dir("corrupt");
  const fs::path path = dir / "settings.json";
  for (const char* text : {"{\"theme\": \"dark\",", "[1, 2, 3]", "", "\x01\x02 not json"}) {
    write_file(path, text);
    fs::remove(dir / "settings.json.corrupt");
    SettingsStore store(path.string());
    INFO("file: " << text);
    CHECK(store.settings() == Settings{});
    const std::string problem = store.take_problem();
    CHECK(problem.find("damaged") != std::string::npos);
    CHECK(problem.find(".corrupt") != std::string::npos);
    CHECK(problem.find("json.exception") == std::string::npos);  // said for people, not nlohmann's raw text
    if (*text == '{') CHECK(problem.find("byte") != std::string::npos);  // where it broke
    CHECK(store.take_problem().empty());  // said once
    REQUIRE(fs::exists(dir / "settings.json.corrupt"));
    CHECK(raw_text(dir / "settings.json.corrupt") == text);  // kept as it was
    // A fresh, valid file with the defaults took its place.
    std::vector<std::string> problems;
    CHECK(settings_from_json(nlohmann::json::parse(attn::io::read_text(path.string())), problems) == Settings{});
    CHECK(problems.empty());
  }
}

TEST_CASE("settings: a file that cannot be read is not damaged: left in place, named with why, never written over") {
  const fs::path dir = fresh_dir("unreadable");
  const fs::path path = dir / "settings.json";
  auto check_left_alone = [&](const std::string& why) {
    SettingsStore store(path.string());
    CHECK(store.settings() == Settings{});
    const std::string problem = store.take_problem();
    INFO("problem: " << problem);
    CHECK(problem.find("could not be read") != std::string::npos);
    CHECK(problem.find(why) != std::string::npos);
    CHECK(problem.find("left as it is") != std::string::npos);
    CHECK_FALSE(fs::exists(dir / "settings.json.corrupt"));
    Settings changed;
    changed.ui_scale_percent = 150;
    store.save(changed);  // this run keeps its hands off the file
    CHECK(store.take_problem().empty());
  };
  SUBCASE("a symlink loop") {
    fs::create_symlink("settings.json", path);  // points at itself
    check_left_alone("symbolic links");
    CHECK(fs::is_symlink(path));
  }
  SUBCASE("a folder where the file should be") {
    fs::create_directories(path);
    check_left_alone("directory");
    CHECK(fs::is_directory(path));
  }
  SUBCASE("permission denied (only bites when not root)") {
    write_file(path, R"({"theme": "dark"})");
    fs::permissions(path, fs::perms::none);
    std::error_code ec;
    const bool denied = !std::ifstream(path).is_open();
    if (denied) check_left_alone("ermission denied");
    fs::permissions(path, fs::perms::owner_read | fs::perms::owner_write);
    CHECK(attn::io::read_text(path.string()) == R"({"theme": "dark"})");  // untouched either way
  }
}

TEST_CASE("progress store: an unreadable file is left in place and said, a damaged one is set aside with a readable reason") {
  const fs::path dir = fresh_dir("progress");
  const fs::path path = dir / "progress.json";
  fs::create_symlink("progress.json", path);
  model::ProgressStore looped(path.string());
  CHECK(looped.problem().find("could not be read") != std::string::npos);
  CHECK(fs::is_symlink(path));
  looped.put("lesson", nlohmann::json::object());  // not written over
  CHECK(fs::is_symlink(path));
  fs::remove(path);
  write_file(path, "{\"lesson\": ");
  model::ProgressStore damaged(path.string());
  CHECK(damaged.problem().find("json.exception") == std::string::npos);
  CHECK(damaged.problem().find("byte") != std::string::npos);
  CHECK(fs::exists(dir / "progress.json.corrupt"));
}

TEST_CASE("settings: a field with a bad value falls back alone, and says which") {
  const fs::path dir = fresh_dir("fields");
  const fs::path path = dir / "settings.json";
  write_file(path, R"({"theme": "purple", "colormap_signed": "viridis", "ui_scale_percent": 900,
                      "contrast": "row", "log_weights": "yes", "recent_files": ["/a.json", "relative.json", 3],
                      "future_key": {"kept": "ignored"}})");
  SettingsStore store(path.string());
  const Settings& s = store.settings();
  CHECK(s.colour.theme == Theme::Light);
  CHECK(s.colour.signed_map == ColourmapId::Viridis);  // the good fields are kept
  CHECK(s.colour.contrast == Contrast::Row);
  CHECK(s.ui_scale_percent == 0);  // not usable: the UI follows the monitor
  CHECK_FALSE(s.colour.log_weights);
  CHECK(s.recent == std::vector<std::string>{"/a.json"});  // only absolute paths
  const std::string problem = store.take_problem();
  INFO(problem);
  for (const char* field : {"theme", "ui_scale_percent", "log_weights", "recent_files"}) CHECK(problem.find(field) != std::string::npos);
  CHECK(problem.find("future_key") == std::string::npos);
  CHECK_FALSE(fs::exists(dir / "settings.json.corrupt"));  // the file was readable
}

TEST_CASE("settings: the recent files of recent.txt move over once") {
  const fs::path dir = fresh_dir("migrate");
  write_file(dir / "recent.txt", "/home/t/one.json\nrelative/two.json\n\n/home/t/three.json\n");
  SettingsStore store((dir / "settings.json").string());
  CHECK(store.settings().recent == std::vector<std::string>{"/home/t/one.json", "/home/t/three.json"});
  CHECK(fs::exists(dir / "recent.txt"));  // still there until settings.json is written
  Settings s = store.settings();
  s.colour.theme = Theme::Dark;
  store.save(s);
  CHECK(fs::exists(dir / "settings.json"));
  CHECK_FALSE(fs::exists(dir / "recent.txt"));
  CHECK(SettingsStore((dir / "settings.json").string()).settings().recent == s.recent);
}

TEST_CASE("settings: a store with no path remembers nothing and writes nothing") {
  SettingsStore store;
  store.save(unusual());
  CHECK(store.settings() == unusual());
  CHECK(store.take_problem().empty());
}

TEST_CASE("settings: a folder that cannot be written is reported once, not fatal") {
  const fs::path dir = fresh_dir("unwritable");
  write_file(dir / "blocker", "a file where the folder should be");
  SettingsStore store((dir / "blocker" / "settings.json").string());
  store.save(unusual());
  CHECK(store.take_problem().find("could not be saved") != std::string::npos);
  Settings other = unusual();
  other.colour.theme = Theme::Dark;
  store.save(other);
  CHECK(store.take_problem().empty());  // not again on every change
}

TEST_CASE("settings and AppState: colours, recent files and a chosen UI size go into the state") {
  AppState state;
  state.view.ui_scale_percent = 125;  // what the monitor asked for
  apply_settings(state, unusual());
  CHECK(state.view.colour == unusual().colour);
  CHECK(state.recent == unusual().recent);
  CHECK(state.view.ui_scale_percent == 175);
  Settings automatic = unusual();
  automatic.ui_scale_percent = 0;  // never chosen: the monitor's scale stays
  state.view.ui_scale_percent = 125;
  apply_settings(state, automatic);
  CHECK(state.view.ui_scale_percent == 125);
}

TEST_CASE("settings tracker: what the user changes is remembered, what the run only started with is not") {
  Settings stored;  // remembered: defaults, UI size never chosen
  AppState state;
  apply_settings(state, stored);
  state.view.colour.theme = Theme::Dark;  // --theme dark for this run
  state.view.ui_scale_percent = 150;      // from the monitor
  SettingsTracker tracker(state);
  Settings out = tracker.remembered(state, stored);
  CHECK(out.colour.theme == Theme::Light);  // a command-line choice is for this run only
  CHECK(out.ui_scale_percent == 0);         // still following the monitor
  state.view.colour.contrast = Contrast::Row;  // the user picks Per row in the menu
  state.view.ui_scale_percent = 200;          // and a larger UI
  out = tracker.remembered(state, out);
  CHECK(out.colour.contrast == Contrast::Row);
  CHECK(out.ui_scale_percent == 200);
  CHECK(out.colour.theme == Theme::Light);
  state.view.ui_scale_percent = 150;  // back to where it started: still a choice, and remembered
  state.view.colour.theme = Theme::HighContrast;
  out = tracker.remembered(state, out);
  CHECK(out.ui_scale_percent == 150);
  CHECK(out.colour.theme == Theme::HighContrast);
  state.recent = {"/tmp/x.json"};
  CHECK(tracker.remembered(state, out).recent == state.recent);
  CHECK(tracker.remembered(state, out).last_lesson.empty());  // no lesson opened yet
  // The lesson open now is remembered by its absolute path.
  const std::string open_lesson = tracker.remembered(state, out, "lessons/x.json").last_lesson;
  CHECK(std::filesystem::path(open_lesson).is_absolute());
  CHECK(open_lesson.size() > 14);
  CHECK(open_lesson.substr(open_lesson.size() - 14) == "lessons/x.json");
}
