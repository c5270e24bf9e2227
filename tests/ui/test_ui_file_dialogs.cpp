// The file dialogs in a real window, driven with xdotool: File > Open starts
// in the user's Documents (HOME points at a folder made here), lists its
// scenarios, goes into a folder and opens a file on double-click; with the
// desktop's chooser (a stand-in zenity on PATH that records its arguments
// and answers a path), Ctrl+O opens what it chose without the in-app browser.
#include <doctest/doctest.h>

#include "../support/scoped_env.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "ui_support.hpp"

using namespace ui_test;
namespace fs = std::filesystem;

namespace {

using Env = test_support::ScopedEnv;

// A home with Documents/talks/two_heads.json (a copy of a bundled scene).
fs::path make_home(const std::string& name) {
  const fs::path home = fs::absolute(temp_path(name));
  fs::remove_all(home);
  fs::create_directories(home / "Documents" / "talks");
  fs::copy_file(std::string(ATTNVIZ_ASSETS_DIR) + "/scenarios/multihead_2x4.json", home / "Documents" / "talks" / "two_heads.json");
  std::ofstream(home / "Documents" / "notes.txt") << "not a scenario";
  return home;
}

}  // namespace

TEST_SUITE("file_dialogs") {
  TEST_CASE("ui: File > Open starts in Documents, goes into a folder, and opens the file double-clicked") {
    const fs::path home = make_home("dialog_home");
    Env h("HOME", home.string());
    Env x("XDG_CONFIG_HOME", (home / ".config").string());
    RunningApp app("", "file_dialogs");
    REQUIRE(app.first_state().is_object());
    REQUIRE_MESSAGE(click_file_menu_until(app, "Open", [](const nlohmann::json& j) { return j["open_dialog"] == true; }).is_object(),
                    "File > Open did not open the dialog");
    // Documents lists its folder, not the .txt file.
    const nlohmann::json listed = settled(app.layout, "browse_talks/");
    REQUIRE_MESSAGE(listed.is_object(), "the Open dialog does not list Documents/talks");
    CHECK_FALSE(listed["widgets"].contains("browse_notes.txt"));
    click_widget(listed, "browse_talks/");
    const nlohmann::json inside = settled(app.layout, "browse_two_heads.json");
    REQUIRE_MESSAGE(inside.is_object(), "going into talks/ did not list two_heads.json");
    const std::string want = (home / "Documents" / "talks" / "two_heads.json").string();
    auto is_open = [&](const nlohmann::json& j) { return j["path"] == want && j["has_trace"] == true; };
    // A loaded machine can draw no frame between the two clicks, and Dear
    // ImGui 1.86 then sees one: the double-click is tried again.
    nlohmann::json opened;
    for (int attempt = 0; attempt < 5 && !opened.is_object(); ++attempt) {
      hover_widget(inside, "browse_two_heads.json");
      double_click();
      opened = wait_for(app.state, is_open, 8000);
    }
    CHECK_MESSAGE(opened.is_object(), "double-clicking two_heads.json did not open it; path now " << load_json(app.state)["path"]);
  }

  TEST_CASE("ui: with the desktop's chooser, Ctrl+O opens what it chose, and it was asked to start in Documents") {
    const fs::path home = make_home("dialog_home_desktop");
    const fs::path bin = home / "bin", args = home / "zenity_args.txt";
    fs::create_directories(bin);
    const std::string chosen = (home / "Documents" / "talks" / "two_heads.json").string();
    std::ofstream(bin / "zenity") << "#!/bin/sh\nprintf '%s\\n' \"$@\" > '" << args.string() << "'\necho '" << chosen << "'\n";
    fs::permissions(bin / "zenity", fs::perms::owner_all);
    Env h("HOME", home.string());
    Env x("XDG_CONFIG_HOME", (home / ".config").string());
    Env p("PATH", bin.string() + ":" + std::getenv("PATH"));
    Env f("ATTNVIZ_FILE_CHOOSER", "zenity");
    RunningApp app("", "file_dialogs_desktop");
    REQUIRE(app.first_state().is_object());
    auto is_open = [&](const nlohmann::json& j) { return j["path"] == chosen && j["has_trace"] == true; };
    // Done once the chooser was asked for, or what it chose is already open.
    REQUIRE_MESSAGE(click_file_menu_until(app, "Open", [&](const nlohmann::json& j) { return j["open_dialog"] == true || is_open(j); })
                        .is_object(),
                    "File > Open did not ask the desktop's chooser");
    const nlohmann::json opened = wait_for(app.state, is_open);
    REQUIRE_MESSAGE(opened.is_object(), "the desktop chooser's file was not opened; path now " << load_json(app.state)["path"]);
    CHECK(opened["open_dialog"] == false);
    std::ifstream in(args);
    const std::string asked((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    CHECK(asked.find("--file-selection") != std::string::npos);
    CHECK(asked.find("--filename=" + (home / "Documents").string() + "/") != std::string::npos);
    CHECK(asked.find("*.json") != std::string::npos);
  }
}
