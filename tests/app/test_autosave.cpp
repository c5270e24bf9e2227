// Autosave files and restoring them: a record round-trips; only files of
// processes no longer running are offered; a corrupt one is not; restoring
// puts the work back as unsaved edits of the document it belonged to.
#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "viz/app_actions.hpp"
#include "viz/autosave.hpp"

namespace {

namespace fs = std::filesystem;

fs::path fresh(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("attnviz_test_autosave_" + name);
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

std::string builtin() {
  std::ifstream in(std::string(ATTNVIZ_ASSETS_DIR) + "/scenarios/default.json");
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

TEST_CASE("autosave: a record round-trips; files of live processes are left alone") {
  const fs::path dir = fresh("orphans");
  viz::AutosaveRecord r;
  r.label = "built-in lesson";
  r.time = 1700000000;
  r.file = attn::io::parse_scenario(builtin());
  r.file.scenario.x(0, 0) = 3.5;
  viz::write_autosave(viz::autosave_file(dir.string(), 999999), r);  // no such process
  viz::write_autosave(viz::autosave_file(dir.string(), static_cast<long>(::getpid())), r);  // this one
  viz::write_autosave(viz::autosave_file(dir.string(), static_cast<long>(::getppid())), r);  // running
  const std::vector<std::string> orphans = viz::orphaned_autosaves(dir.string(), static_cast<long>(::getpid()));
  REQUIRE(orphans.size() == 1);
  CHECK(orphans[0] == viz::autosave_file(dir.string(), 999999));
  const std::optional<viz::AutosaveRecord> back = viz::read_autosave(orphans[0]);
  REQUIRE(back);
  CHECK(back->file.scenario.x(0, 0) == 3.5);
  CHECK(back->time == 1700000000);
  std::ofstream(orphans[0]) << "{ truncated";
  CHECK_FALSE(viz::read_autosave(orphans[0]));
}

TEST_CASE("autosave: restoring brings the edit back as unsaved work of its file; discarding deletes it") {
  const fs::path dir = fresh("restore");
  const std::string scene = (dir / "scene.json").string();
  attn::io::ScenarioFile original = attn::io::parse_scenario(builtin());
  attn::io::save_scenario(scene, original);
  viz::AutosaveRecord r;
  r.path = scene;
  r.file = original;
  r.file.scenario.x(1, 2) = -7;
  const std::string file = viz::autosave_file(dir.string(), 999998);
  viz::write_autosave(file, r);

  viz::AppState s;
  s.builtin_text = builtin();
  viz::actions::open_builtin(s);
  s.restore_offer = viz::read_autosave(file);
  s.restore_file = file;
  viz::actions::restore_autosave(s, true);
  CHECK(s.path == scene);
  CHECK(s.doc.scenario.x(1, 2) == -7);
  CHECK(s.dirty());        // differs from the file on disk
  CHECK(s.history.can_undo());  // undo goes back to the file's values
  CHECK_FALSE(fs::exists(file));

  viz::write_autosave(file, r);
  s.restore_offer = viz::read_autosave(file);
  viz::actions::restore_autosave(s, false);
  CHECK_FALSE(fs::exists(file));
  CHECK_FALSE(s.restore_offer);
}
