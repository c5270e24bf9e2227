// The open file changed on disk: tell the user, and reload without losing
// their version (see disk_actions.hpp).
#include "model/document/disk_actions.hpp"

#include <exception>
#include <filesystem>

#include "attn/io/machine_limits.hpp"
#include "model/document/app_actions.hpp"

namespace model::actions {

namespace {

std::string file_name(const std::string& path) { return std::filesystem::path(path).filename().string(); }

}  // namespace

void disk_report(AppState& s, const DiskReport& r) {
  if (r.path.empty() || r.path != s.path) return;
  AppState::DiskFile& d = s.disk;
  // Back to the bytes the document holds (an undo in the other program):
  // nothing to say any more.
  if (r.change == DiskChange::Same || (r.now.exists && r.now.hash == d.stamp.hash)) {
    d.outside = DiskChange::Same;
    d.outside_stamp = {};
    d.answered = false;
    return;
  }
  d.outside = r.change;
  d.outside_stamp = r.now;
  d.answered = false;  // a new change is worth a new word, even after "keep"
}

void keep_this_version(AppState& s) { s.disk.answered = true; }

bool reload_from_disk(AppState& s) {
  if (s.path.empty()) return false;
  StampedScenario read;
  try {
    read = load_stamped_scenario(s.path, attn::io::machine_limits());
  } catch (const std::exception& e) {
    s.message = "Could not reload the file; the document stays as it is.\n\n" + std::string(e.what());
    return false;
  }
  if (s.edit_in_progress) commit(s);
  const bool had_edits = s.dirty();
  const attn::Scenario mine = s.doc.scenario;
  s.doc.title = read.file.title;
  s.doc.description = read.file.description;
  s.doc.scenario = read.file.scenario;
  s.saved = read.file.scenario;
  ++s.saved_version;
  s.original = read.file.scenario;
  s.disk = {};
  s.disk.stamp = read.stamp;
  s.draft = {};
  changed(s);  // one step: Ctrl+Z brings the version before the reload back
  const std::string name = file_name(s.path);
  for (const std::string& w : read.file.warnings) s.notices.push_back({name + ": " + w, 0, s.document});
  if (had_edits) s.reload_replaced = AppState::ReplacedEdits{mine, name};  // B: the document, now the file's version
  return true;
}

}  // namespace model::actions
