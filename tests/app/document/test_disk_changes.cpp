// The open file changed on disk by someone else (another window, an
// editor): Save asks before writing over it, the answers keep both versions
// reachable, the watcher reports a change once, and a file rewritten with
// the same bytes is no change at all.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "attn/io/scenario_file.hpp"
#include "model/document/app_actions.hpp"
#include "model/document/disk_actions.hpp"
#include "model/files/disk_watcher.hpp"

#include "test_files.hpp"

namespace {

namespace fs = std::filesystem;
using model::AppState;
using model::DiskChange;
namespace actions = model::actions;

using test_files::read;

void write(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::trunc) << text; }

// A copy of the default scene in a fresh folder, opened.
struct OpenCopy {
  std::string path;
  AppState s;
  explicit OpenCopy(const std::string& name) {
    const fs::path dir = fs::temp_directory_path() / ("attnviz_test_disk_" + name);
    fs::remove_all(dir);
    fs::create_directories(dir);
    path = (dir / "shared.json").string();
    fs::copy_file(std::string(ATTNVIZ_ASSETS_DIR) + "/scenarios/default.json", path);
    REQUIRE(actions::open(s, path));
  }
};

// What another window does: opens the file, sets one value, saves.
void other_window_sets(const std::string& path, int r, int c, double v) {
  attn::io::ScenarioFile f = attn::io::load_scenario(path);
  f.scenario.x(r, c) = v;
  attn::io::save_scenario(path, f);
}

double x_on_disk(const std::string& path, int r, int c) { return attn::io::load_scenario(path).scenario.x(r, c); }

}  // namespace

TEST_CASE("disk: two windows save one file: the second Save asks instead of writing over the first one's edit") {
  OpenCopy b("two_windows");
  b.s.doc.scenario.x(0, 1) = 2.5;  // window B's edit, not saved yet
  actions::changed(b.s);
  other_window_sets(b.path, 0, 0, 1.5);  // window A saves its own edit
  actions::save_or_ask(b.s);
  CHECK(b.s.disk.save_conflict);
  CHECK(x_on_disk(b.path, 0, 0) == 1.5);  // A's edit is still there
  CHECK(x_on_disk(b.path, 0, 1) != 2.5);
  CHECK(b.s.dirty());

  SUBCASE("Overwrite writes B's version, knowingly") {
    actions::answer_save_conflict(b.s, actions::ConflictAnswer::Overwrite);
    CHECK_FALSE(b.s.disk.save_conflict);
    CHECK(x_on_disk(b.path, 0, 1) == 2.5);
    CHECK(x_on_disk(b.path, 0, 0) != 1.5);
    CHECK_FALSE(b.s.dirty());
    // Saved: the next save has nothing to ask about.
    b.s.doc.scenario.x(1, 1) = 0.75;
    actions::changed(b.s);
    actions::save_or_ask(b.s);
    CHECK_FALSE(b.s.disk.save_conflict);
    CHECK(x_on_disk(b.path, 1, 1) == 0.75);
  }
  SUBCASE("Reload and compare: the file's version is the document, B's is A in the compare view and one Ctrl+Z away") {
    const std::string before = read(b.path);
    actions::answer_save_conflict(b.s, actions::ConflictAnswer::ReloadAndCompare);
    CHECK(read(b.path) == before);  // nothing written
    CHECK(b.s.doc.scenario.x(0, 0) == 1.5);
    CHECK_FALSE(b.s.dirty());
    REQUIRE(b.s.reload_replaced.has_value());  // the compare view takes them as A (test_compare.cpp)
    CHECK(b.s.reload_replaced->edits.x(0, 1) == 2.5);
    actions::undo(b.s);
    CHECK(b.s.doc.scenario.x(0, 1) == 2.5);
    CHECK(b.s.doc.scenario.x(0, 0) != 1.5);
    CHECK(b.s.dirty());  // unsaved again, against the file as it is now
    actions::save_or_ask(b.s);  // the file is as reloaded: no question
    CHECK_FALSE(b.s.disk.save_conflict);
    CHECK(x_on_disk(b.path, 0, 1) == 2.5);
  }
  SUBCASE("Cancel writes nothing and keeps the edit; Save as asks for a path") {
    actions::answer_save_conflict(b.s, actions::ConflictAnswer::Cancel);
    CHECK(x_on_disk(b.path, 0, 0) == 1.5);
    CHECK(b.s.doc.scenario.x(0, 1) == 2.5);
    actions::save_or_ask(b.s);
    REQUIRE(b.s.disk.save_conflict);  // still changed: asked again
    actions::answer_save_conflict(b.s, actions::ConflictAnswer::SaveAs);
    CHECK(b.s.save_dialog);
  }
}

TEST_CASE("disk: new bytes of the same size under the old mtime (cp -p, rsync -t, tar) still make Save ask") {
  OpenCopy b("same_size_old_mtime");
  struct stat before {};
  REQUIRE(::stat(b.path.c_str(), &before) == 0);
  std::string text = read(b.path);
  const std::size_t digit = text.find_first_of("123456789");
  REQUIRE(digit != std::string::npos);
  text[digit] = text[digit] == '9' ? '8' : static_cast<char>(text[digit] + 1);  // one digit, same length
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  write(b.path, text);
  const struct timespec times[2] = {before.st_atim, before.st_mtim};
  REQUIRE(::utimensat(AT_FDCWD, b.path.c_str(), times, 0) == 0);  // the old mtime put back
  struct stat after {};
  REQUIRE(::stat(b.path.c_str(), &after) == 0);
  REQUIRE(after.st_size == before.st_size);
  REQUIRE(after.st_mtim.tv_nsec == before.st_mtim.tv_nsec);
  b.s.doc.scenario.x(1, 0) = 4.25;
  actions::changed(b.s);
  actions::save_or_ask(b.s);
  CHECK(b.s.disk.save_conflict);
  CHECK(read(b.path) == text);  // the other program's bytes are still there
}

TEST_CASE("disk: quitting with unsaved edits, Save asks about the changed file before quitting") {
  OpenCopy b("quit");
  b.s.doc.scenario.x(0, 1) = 2.5;
  actions::changed(b.s);
  other_window_sets(b.path, 0, 0, 1.5);
  actions::request_quit(b.s);
  REQUIRE(b.s.confirm_discard);
  actions::answer(b.s, actions::Answer::Save);
  CHECK(b.s.disk.save_conflict);
  CHECK_FALSE(b.s.quit);
  actions::answer_save_conflict(b.s, actions::ConflictAnswer::Overwrite);
  CHECK(b.s.quit);  // carried on once saved
  CHECK(x_on_disk(b.path, 0, 1) == 2.5);
}

TEST_CASE("disk: the same bytes written again (a touch, a copy over it) are no change") {
  OpenCopy b("same_bytes");
  const std::string text = read(b.path);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  fs::remove(b.path);
  write(b.path, text);  // new inode and time, same bytes
  model::DiskStamp now;
  CHECK(model::compare_with_disk(b.s.disk.stamp, b.path, &now) == DiskChange::Same);
  CHECK_FALSE(now.same_metadata(b.s.disk.stamp));
  b.s.doc.scenario.x(0, 1) = 2.5;
  actions::changed(b.s);
  actions::save_or_ask(b.s);
  CHECK_FALSE(b.s.disk.save_conflict);
  CHECK(x_on_disk(b.path, 0, 1) == 2.5);
  // One byte changed, same size: changed.
  std::string other = read(b.path);
  const size_t at = other.find("2.5");
  REQUIRE(at != std::string::npos);
  other[at] = '3';
  write(b.path, other);
  CHECK(model::compare_with_disk(b.s.disk.stamp, b.path) == DiskChange::Changed);
  fs::remove(b.path);
  CHECK(model::compare_with_disk(b.s.disk.stamp, b.path) == DiskChange::Gone);
}

TEST_CASE("disk: a file gone from disk is written again by Save, with no question") {
  OpenCopy b("gone");
  fs::remove(b.path);
  b.s.doc.scenario.x(0, 1) = 2.5;
  actions::changed(b.s);
  actions::save_or_ask(b.s);
  CHECK_FALSE(b.s.disk.save_conflict);
  CHECK(x_on_disk(b.path, 0, 1) == 2.5);
}

TEST_CASE("disk: the watcher reports a change made outside once, and the app offers Reload until answered") {
  OpenCopy b("watch");
  model::DiskWatcher watcher(10);
  watcher.watch(b.path, b.s.disk.stamp);
  auto wait_report = [&] {
    for (int i = 0; i < 500; ++i) {
      if (auto r = watcher.take()) return r;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return std::optional<model::DiskReport>{};
  };
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  CHECK_FALSE(watcher.take().has_value());  // nothing happened: nothing said
  other_window_sets(b.path, 0, 0, 1.5);
  const std::optional<model::DiskReport> r = wait_report();
  REQUIRE(r.has_value());
  CHECK(r->change == DiskChange::Changed);
  actions::disk_report(b.s, *r);
  CHECK(b.s.disk.outside == DiskChange::Changed);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  CHECK_FALSE(watcher.take().has_value());  // said once

  SUBCASE("Reload with no edits: the file's numbers, nothing unsaved, Ctrl+Z goes back") {
    const double before = b.s.doc.scenario.x(0, 0);
    REQUIRE(actions::reload_from_disk(b.s));
    CHECK(b.s.doc.scenario.x(0, 0) == 1.5);
    CHECK_FALSE(b.s.dirty());
    CHECK(b.s.disk.outside == DiskChange::Same);
    CHECK_FALSE(b.s.reload_replaced.has_value());  // nothing of the user's to compare with
    actions::undo(b.s);
    CHECK(b.s.doc.scenario.x(0, 0) == before);
  }
  SUBCASE("Keep this version hides the line; a further change brings it back") {
    actions::keep_this_version(b.s);
    CHECK(b.s.disk.answered);
    other_window_sets(b.path, 0, 0, 2.5);
    const std::optional<model::DiskReport> again = wait_report();
    REQUIRE(again.has_value());
    actions::disk_report(b.s, *again);
    CHECK_FALSE(b.s.disk.answered);
    // And the other program puts the original back: nothing left to say.
    attn::io::ScenarioFile f = attn::io::load_scenario(b.path);
    f.scenario = b.s.doc.scenario;
    f.title = b.s.doc.title;
    f.description = b.s.doc.description;
    attn::io::save_scenario(b.path, f);
    if (model::compare_with_disk(b.s.disk.stamp, b.path) == DiskChange::Same) {
      const std::optional<model::DiskReport> back = wait_report();
      REQUIRE(back.has_value());
      actions::disk_report(b.s, *back);
      CHECK(b.s.disk.outside == DiskChange::Same);
    }
  }
}

TEST_CASE("disk: a reload that cannot read the file keeps the document and says why") {
  OpenCopy b("bad_reload");
  b.s.doc.scenario.x(0, 1) = 2.5;
  actions::changed(b.s);
  write(b.path, "{ not json");
  CHECK_FALSE(actions::reload_from_disk(b.s));
  CHECK(b.s.doc.scenario.x(0, 1) == 2.5);
  CHECK(b.s.message.find("shared.json") != std::string::npos);
}

TEST_CASE("notices: opening another document keeps the app's notices and drops the old file's") {
  AppState s;
  s.builtin_text = read(std::string(ATTNVIZ_ASSETS_DIR) + "/scenarios/default.json");
  actions::open_builtin(s);
  actions::notify(s, "Lesson progress could not be read");
  const fs::path typo = fs::temp_directory_path() / "attnviz_test_disk_typo.json";
  std::string text = s.builtin_text;
  text.insert(text.find('{') + 1, "\"maks\": 1, ");
  write(typo.string(), text);
  REQUIRE(actions::open(s, typo.string()));
  REQUIRE(s.notices.size() == 2);  // the app's, and the file's skipped key
  CHECK(s.notices[0].text == "Lesson progress could not be read");
  CHECK(s.notices[1].text.find("maks") != std::string::npos);
  actions::open_builtin(s);
  REQUIRE(s.notices.size() == 1);
  CHECK(s.notices[0].text == "Lesson progress could not be read");
  // A large file read in the background arrives a second later: the
  // settings notice said at start is still there.
  actions::notify(s, "Settings could not be read");
  actions::request_background_open(s, typo.string());
  actions::background_read_arrived(s, attn::io::load_scenario(typo.string()), typo.string());
  CHECK(s.path == typo.string());
  CHECK(s.notices.size() == 3);
  CHECK(s.notices[1].text == "Settings could not be read");
}
