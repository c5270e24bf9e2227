// The file dialogs' model: a folder's listing (folders first, sorted
// ignoring case, filtered, hidden files on request, huge folders capped, an
// unreadable one named), the user's folders from XDG user-dirs, where each
// dialog starts and what it remembers (also through the settings file), and
// the desktop chooser: its command lines, and a run of a stand-in zenity
// that chooses, cancels, fails or is closed.
#include <doctest/doctest.h>

#include "../support/scoped_env.hpp"

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

#include "model/files/desktop_chooser.hpp"
#include "model/files/file_browser.hpp"
#include "model/files/file_dialogs.hpp"
#include "model/settings/settings.hpp"
#include "model/document/settings_state.hpp"

namespace fs = std::filesystem;
using namespace model;

#include "test_files.hpp"

namespace {

// A fresh folder under the temp directory, removed first.

void touch(const fs::path& p) { std::ofstream(p) << "{}"; }

using Env = test_support::ScopedEnv;

std::vector<std::string> names(const FolderListing& l) {
  std::vector<std::string> out;
  for (const FolderEntry& e : l.entries) out.push_back(e.name + (e.folder ? "/" : ""));
  return out;
}

// Waits (at most 10 s) for a chooser's result.
std::optional<ChooserResult> wait_result(DesktopChooser& c) {
  for (int i = 0; i < 1000; ++i) {
    if (std::optional<ChooserResult> r = c.poll()) return r;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return std::nullopt;
}

}  // namespace

TEST_CASE("a folder lists its folders first, then the files the filter lets through, each sorted ignoring case") {
  const fs::path dir = test_files::fresh_folder("files_listing");
  fs::create_directories(dir / "zeta");
  fs::create_directories(dir / "Alpha");
  fs::create_directories(dir / ".hidden_dir");
  for (const char* f : {"b.json", "A.JSON", "c.txt", ".secret.json", "s10.json", "s2.json", "s02b.json"}) touch(dir / f);
  const FileFilter json{"Scenarios (.json)", {".json"}};
  CHECK(names(list_folder(dir.string(), json, false)) ==
        std::vector<std::string>{"Alpha/", "zeta/", "A.JSON", "b.json", "s2.json", "s02b.json", "s10.json"});
  CHECK(names(list_folder(dir.string(), FileFilter{}, false)) ==
        std::vector<std::string>{"Alpha/", "zeta/", "A.JSON", "b.json", "c.txt", "s2.json", "s02b.json", "s10.json"});
  CHECK(names(list_folder(dir.string(), json, true)) ==
        std::vector<std::string>{".hidden_dir/", "Alpha/", "zeta/", ".secret.json", "A.JSON", "b.json", "s2.json", "s02b.json", "s10.json"});
  const FolderListing l = list_folder((dir / "zeta" / "..").string() + "/", json, false);
  CHECK(l.folder == dir.string());  // normalised
  CHECK(l.error.empty());
}

TEST_CASE("a folder that cannot be read says so, a huge one lists the first entries and counts the rest") {
  const FolderListing missing = list_folder("/no/such/folder/attnviz", FileFilter{}, false);
  CHECK(missing.entries.empty());
  CHECK(missing.error.find("cannot read /no/such/folder/attnviz") == 0);
  const fs::path dir = test_files::fresh_folder("files_huge");
  const size_t n = kMaxListed + 7;
  for (size_t i = 1; i <= n; ++i) std::ofstream(dir / ("f" + std::to_string(i) + ".png"));
  fs::create_directories(dir / "zz_folder");
  const FolderListing l = list_folder(dir.string(), FileFilter{"Pictures", {".png"}}, false);
  REQUIRE(l.entries.size() == kMaxListed);
  CHECK(l.left_out == 8);  // 7 files and one more (the folder took a place)
  // The folder first, then the first names in number order, whatever the disk's order.
  CHECK(l.entries[0].name == "zz_folder");
  for (size_t i = 1; i < l.entries.size(); ++i) CHECK_MESSAGE(l.entries[i].name == "f" + std::to_string(i) + ".png", i);
}

TEST_CASE("the user's Documents and Pictures: XDG user-dirs first, else ~/Documents, else home") {
  const fs::path home = test_files::fresh_folder("files_home");
  Env h("HOME", home.string());
  Env c("XDG_CONFIG_HOME", (home / ".config").string());
  CHECK(user_folder(UserFolder::Documents) == home.string());  // neither exists: home
  fs::create_directories(home / "Documents");
  CHECK(user_folder(UserFolder::Documents) == (home / "Documents").string());
  fs::create_directories(home / "Dokumente");
  fs::create_directories(home / ".config");
  std::ofstream(home / ".config" / "user-dirs.dirs") << "# written by xdg-user-dirs-update\nXDG_DOCUMENTS_DIR=\"$HOME/Dokumente\"\n"
                                                        "XDG_PICTURES_DIR=\"$HOME/\"\n";
  CHECK(user_folder(UserFolder::Documents) == (home / "Dokumente").string());
  CHECK(user_folder(UserFolder::Pictures) == home.string());  // disabled (set to home), and no ~/Pictures
  // Places: Home, then the user's folders, the recent folders that exist, the root.
  const std::vector<Place> p = places({(home / "Documents").string(), "/gone/away"});
  REQUIRE(p.size() >= 4);
  CHECK(p[0].label == "Home");
  CHECK(p[1].path == (home / "Dokumente").string());
  CHECK(p[2].path == (home / "Documents").string());
  CHECK(p.back().path == "/");
  for (const Place& place : p) CHECK(place.path != "/gone/away");
}

TEST_CASE("a dialog starts in its last folder, else the user's folder, choosing remembers it, also across runs") {
  const fs::path home = test_files::fresh_folder("files_dialogs");
  Env h("HOME", home.string());
  Env c("XDG_CONFIG_HOME", (home / ".config").string());
  fs::create_directories(home / "Documents");
  fs::create_directories(home / "Pictures");
  fs::create_directories(home / "work");
  AppState s;
  CHECK(files::start_folder(s.files, files::Dialog::OpenScenario) == (home / "Documents").string());
  CHECK(files::start_folder(s.files, files::Dialog::Export) == (home / "Pictures").string());
  CHECK(files::start_path(s.files, files::Dialog::Export, "a.png") == (home / "Pictures" / "a.png").string());
  files::chosen(s.files, files::Dialog::Export, (home / "work" / "talk.gif").string());
  CHECK(files::start_folder(s.files, files::Dialog::Export) == (home / "work").string());
  CHECK(s.files.last_export_name == "talk.gif");
  CHECK(files::start_folder(s.files, files::Dialog::OpenScenario) == (home / "Documents").string());  // each dialog its own
  CHECK(s.files.recent_folders == std::vector<std::string>{(home / "work").string()});
  // Through the settings file and back.
  SettingsTracker tracker(s);
  const Settings saved = tracker.remembered(s, Settings{});
  std::vector<std::string> problems;
  const Settings read = settings_from_json(settings_json(saved), problems);
  CHECK(problems.empty());
  AppState next;
  apply_settings(next, read);
  CHECK(files::start_folder(next.files, files::Dialog::Export) == (home / "work").string());
  CHECK(next.files.last_export_name == "talk.gif");
  // A remembered folder that is gone: the user's folder again.
  fs::remove_all(home / "work");
  CHECK(files::start_folder(next.files, files::Dialog::Export) == (home / "Pictures").string());
  // Bad values in the file are named, not used.
  nlohmann::json bad = settings_json(saved);
  bad["last_folder"] = {{"export", "relative/path"}};
  bad["last_export_name"] = "a/b.png";
  problems.clear();
  const Settings fixed = settings_from_json(bad, problems);
  CHECK(problems.size() == 2);
  CHECK(fixed.last_folder.empty());
  CHECK(fixed.last_export_name.empty());
}

TEST_CASE("folder_of, remember_folder and the export filter") {
  const fs::path dir = test_files::fresh_folder("files_folder_of");
  CHECK(folder_of((dir / "new.json").string()) == dir.string());
  CHECK(folder_of(dir.string()) == dir.string());
  CHECK(folder_of(dir.string() + "/") == dir.string());
  CHECK(folder_of("/no/such/dir/x.json").empty());
  std::vector<std::string> recent;
  for (int i = 0; i < 10; ++i) remember_folder(recent, "/f" + std::to_string(i));
  remember_folder(recent, "/f5");
  CHECK(recent.size() == kMaxRecentFolders);
  CHECK(recent[0] == "/f5");
  CHECK(std::count(recent.begin(), recent.end(), "/f5") == 1);
  CHECK(files::export_filter("x/talk.GIF").extensions == std::vector<std::string>{".gif"});
  CHECK(files::export_filter("x/talk").extensions.size() == 7);
}

TEST_CASE("desktop chooser command lines: zenity and kdialog, open, save and folder") {
  ChooserRequest r;
  r.title = "Open scenario";
  r.start = "/tmp/";
  r.filter = {"Scenarios (.json)", {".json"}};
  const std::vector<std::string> z = chooser_command(ChooserTool::Zenity, r);
  CHECK(z == std::vector<std::string>{"zenity", "--file-selection", "--title=Open scenario", "--filename=/tmp/",
                                      "--file-filter=Scenarios (.json) | *.json *.JSON", "--file-filter=All files | *"});
  r.mode = ChooserRequest::Mode::Save;
  r.start = "/tmp/a.json";
  const std::vector<std::string> zs = chooser_command(ChooserTool::Zenity, r);
  CHECK(std::find(zs.begin(), zs.end(), "--save") != zs.end());
  CHECK(std::find(zs.begin(), zs.end(), "--confirm-overwrite") != zs.end());
  CHECK(std::find(zs.begin(), zs.end(), "--filename=/tmp/a.json") != zs.end());
  const std::vector<std::string> k = chooser_command(ChooserTool::Kdialog, r);
  CHECK(k == std::vector<std::string>{"kdialog", "--title", "Open scenario", "--getsavefilename", "/tmp/a.json",
                                      "*.json *.JSON|Scenarios (.json)"});
  r.mode = ChooserRequest::Mode::Folder;
  CHECK(chooser_command(ChooserTool::Kdialog, r)[3] == "--getexistingdirectory");
  CHECK(chooser_command(ChooserTool::None, r).empty());
}

TEST_CASE("a desktop chooser run: chosen, cancelled, failed, closed by cancel(), and the tool looked up on PATH") {
  const fs::path bin = test_files::fresh_folder("files_bin");
  const fs::path tool = bin / "zenity";
  auto stand_in = [&](const std::string& body) {
    std::ofstream(tool) << "#!/bin/sh\n" << body << "\n";
    fs::permissions(tool, fs::perms::owner_all);
  };
  Env path("PATH", bin.string() + ":/usr/bin:/bin");
  {
    Env forced("ATTNVIZ_FILE_CHOOSER", "builtin");
    CHECK(find_chooser_tool(false) == ChooserTool::None);
  }
  Env forced("ATTNVIZ_FILE_CHOOSER", "");
  stand_in("echo /home/a/talk.json");
  CHECK(find_chooser_tool(true) == ChooserTool::None);  // under a test, only when asked for
  CHECK(find_chooser_tool(false) == ChooserTool::Zenity);
  ChooserRequest r;
  r.title = "Open";
  DesktopChooser c;
  std::string error;
  REQUIRE(c.start(ChooserTool::Zenity, r, &error));
  std::optional<ChooserResult> got = wait_result(c);
  REQUIRE(got);
  CHECK(got->outcome == ChooserResult::Outcome::Chosen);
  CHECK(got->path == "/home/a/talk.json");
  CHECK_FALSE(c.running());

  stand_in("exit 1");
  REQUIRE(c.start(ChooserTool::Zenity, r, &error));
  got = wait_result(c);
  REQUIRE(got);
  CHECK(got->outcome == ChooserResult::Outcome::Cancelled);

  stand_in("echo 'cannot open display'; exit 255");
  REQUIRE(c.start(ChooserTool::Zenity, r, &error));
  got = wait_result(c);
  REQUIRE(got);
  CHECK(got->outcome == ChooserResult::Outcome::Failed);
  CHECK(got->error == "zenity exited with 255: cannot open display");

  stand_in("exec sleep 30");
  REQUIRE(c.start(ChooserTool::Zenity, r, &error));
  CHECK(c.running());
  CHECK_FALSE(c.start(ChooserTool::Zenity, r, &error));  // one at a time
  c.cancel();
  got = wait_result(c);
  REQUIRE(got);
  CHECK(got->outcome == ChooserResult::Outcome::Cancelled);

  fs::remove(tool);
  CHECK(find_chooser_tool(false) != ChooserTool::Zenity);
  CHECK_FALSE(c.start(ChooserTool::Zenity, r, &error));
  CHECK(error.find("cannot start zenity") == 0);
}
