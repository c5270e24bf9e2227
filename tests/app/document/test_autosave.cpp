// Autosave files and restoring them: a record round-trips; only files of
// processes no longer running are offered; a corrupt one is not; restoring
// puts the work back as unsaved edits of the document it belonged to.
#include <doctest/doctest.h>

#include <signal.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <thread>
#include <fstream>

#include "model/document/app_actions.hpp"
#include "model/files/autosave.hpp"
#include "model/files/autosave_writer.hpp"

#include "test_files.hpp"

namespace {

namespace fs = std::filesystem;


using test_files::builtin;

}  // namespace

TEST_CASE("autosave: a record round-trips, files of live processes are left alone") {
  const fs::path dir = test_files::fresh_folder("autosave_orphans");
  model::AutosaveRecord r;
  r.label = "built-in lesson";
  r.time = 1700000000;
  r.file = attn::io::parse_scenario(builtin());
  r.file.scenario.x(0, 0) = 3.5;
  const std::string gone = model::autosave_file(dir.string(), 999999);
  model::write_autosave(gone, r);  // its run holds no lock: gone
  const std::string mine = model::autosave_file(dir.string(), static_cast<long>(::getpid()));
  const model::AutosaveLock my_lock(mine);  // this run, still going
  REQUIRE(my_lock.held());
  model::write_autosave(mine, r);
  const std::vector<std::string> orphans = model::orphaned_autosaves(dir.string());
  REQUIRE(orphans.size() == 1);
  CHECK(orphans[0] == gone);
  const std::optional<model::AutosaveRecord> back = model::read_autosave(orphans[0]);
  REQUIRE(back);
  CHECK(back->file.scenario.x(0, 0) == 3.5);
  CHECK(back->time == 1700000000);
  std::ofstream(orphans[0]) << "{ truncated";
  CHECK_FALSE(model::read_autosave(orphans[0]));
}

TEST_CASE("autosave: restoring brings the edit back as unsaved work of its file, discarding deletes it") {
  const fs::path dir = test_files::fresh_folder("autosave_restore");
  const std::string scene = (dir / "scene.json").string();
  attn::io::ScenarioFile original = attn::io::parse_scenario(builtin());
  attn::io::save_scenario(scene, original);
  model::AutosaveRecord r;
  r.path = scene;
  r.file = original;
  r.file.scenario.x(1, 2) = -7;
  const std::string file = model::autosave_file(dir.string(), 999998);
  model::write_autosave(file, r);

  model::AppState s;
  s.builtin_text = builtin();
  model::actions::open_builtin(s);
  s.restore_offer = model::read_autosave(file);
  s.restore_file = file;
  model::actions::restore_autosave(s, true);
  CHECK(s.path == scene);
  CHECK(s.doc.scenario.x(1, 2) == -7);
  CHECK(s.dirty());        // differs from the file on disk
  CHECK(s.history.can_undo());  // undo goes back to the file's values
  CHECK_FALSE(fs::exists(file));

  model::write_autosave(file, r);
  s.restore_offer = model::read_autosave(file);
  model::actions::restore_autosave(s, false);
  CHECK_FALSE(fs::exists(file));
  CHECK_FALSE(s.restore_offer);
}

TEST_CASE("autosave: a run killed with -9 is found gone at once, even as an unreaped zombie whose PID still answers") {
  const fs::path dir = test_files::fresh_folder("autosave_zombie");
  model::AutosaveRecord r;
  r.label = "built-in lesson";
  r.file = attn::io::parse_scenario(builtin());
  int ready[2];
  REQUIRE(::pipe(ready) == 0);
  // The "crashed run": a child that takes its lock as the app does, says so
  // and waits to be killed (only async-signal-safe calls after fork).
  const std::string file = model::autosave_file(dir.string(), 424242);
  const std::string lock = model::autosave_lock_file(file);
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    const int fd = ::open(lock.c_str(), O_RDWR | O_CREAT, 0600);
    if (fd < 0 || ::flock(fd, LOCK_EX) != 0) ::_exit(1);
    if (::write(ready[1], "1", 1) != 1) ::_exit(1);
    for (;;) ::pause();
  }
  char c = 0;
  REQUIRE(::read(ready[0], &c, 1) == 1);
  model::write_autosave(file, r);
  CHECK(model::orphaned_autosaves(dir.string()).empty());  // alive: its work is its own
  ::kill(child, SIGKILL);
  // Not reaped yet: a zombie, whose PID kill(pid, 0) still finds. The lock
  // went with its open files as it died.
  std::vector<std::string> orphans;
  for (int i = 0; i < 200 && orphans.empty(); ++i) {
    orphans = model::orphaned_autosaves(dir.string());
    if (orphans.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  CHECK(::kill(child, 0) == 0);  // the zombie still answers
  REQUIRE(orphans.size() == 1);
  CHECK(orphans[0] == file);
  ::waitpid(child, nullptr, 0);
  ::close(ready[0]);
  ::close(ready[1]);
  model::remove_autosave(file);
  CHECK_FALSE(fs::exists(file));
  CHECK_FALSE(fs::exists(lock));
}

TEST_CASE("autosave: two runs started with the same PID (reused) never share a copy, a lock alone is tidied away") {
  const fs::path dir = test_files::fresh_folder("autosave_reused_pid");
  const std::string first = model::autosave_file(dir.string(), 777);
  std::this_thread::sleep_for(std::chrono::milliseconds(1));
  const std::string second = model::autosave_file(dir.string(), 777);
  CHECK(first != second);
  { model::AutosaveLock crashed_early(first); }  // a normal end deletes its lock
  CHECK_FALSE(fs::exists(model::autosave_lock_file(first)));
  std::ofstream(model::autosave_lock_file(second)) << "";  // a run that died before its first copy
  CHECK(model::orphaned_autosaves(dir.string()).empty());
  CHECK_FALSE(fs::exists(model::autosave_lock_file(second)));
}

TEST_CASE("autosave: a copy that cannot be written is said in the window once, and taken back when one is written") {
  const fs::path dir = test_files::fresh_folder("autosave_full_disk");
  // A folder that cannot be made (a file stands where it would be) fails
  // every write as a full disk does.
  const fs::path blocked = dir / "config";
  std::ofstream(blocked.string()) << "a file, not a folder";
  model::AppState s;
  s.builtin_text = builtin();
  model::actions::open_builtin(s);
  model::AutosaveRecord r;
  r.label = "built-in lesson";
  r.file = s.doc;
  {
    model::AutosaveWriter writer(model::autosave_file(blocked.string(), 1));
    auto write_once = [&] {
      writer.submit(r);
      writer.wait_idle();
      const std::optional<model::AutosaveWriter::Outcome> outcome = writer.take_outcome();
      REQUIRE(outcome.has_value());
      model::actions::autosave_outcome(s, outcome->ok, outcome->error);
      return outcome->ok;
    };
    CHECK_FALSE(write_once());
    REQUIRE(s.notices.size() == 1);
    CHECK(s.notices[0].text.find("Crash recovery is off") != std::string::npos);
    CHECK_FALSE(write_once());
    CHECK(s.notices.size() == 1);  // once, not every few seconds
    fs::remove(blocked);
    CHECK(write_once());
    CHECK(s.notices.empty());  // working again: nothing left to say
    CHECK(s.autosave_failing.empty());
    CHECK_FALSE(writer.take_outcome().has_value());  // each outcome once
  }
}
