// Document-level actions. Loading never touches the current document until
// the new file has been read and parsed, so a bad file cannot lose the
// user's work; a file that parses replaces it whole (never a mix of both).
#include "model/document/app_actions.hpp"
#include "model/files/file_dialogs.hpp"

#include <algorithm>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <system_error>
#include <utility>

#include "attn/io/machine_limits.hpp"
#include "model/document/disk_actions.hpp"
#include "model/files/disk_stamp.hpp"
#include "model/files/file_loader.hpp"
#include "model/document/scenario_edit.hpp"
#include "model/hf/model_folder.hpp"

namespace model::actions {
namespace {

void replace_document(AppState& s, attn::io::ScenarioFile file, const std::string& path, const DiskStamp& stamp) {
  // The old document's notices go with it; the app's own (settings, a failed
  // autosave, lesson progress) stay until the user has read them.
  s.notices.erase(std::remove_if(s.notices.begin(), s.notices.end(),
                                 [](const Notice& n) { return n.document != 0 || n.position != 0; }),
                  s.notices.end());
  ++s.document;
  // The loader skips unknown keys; say so, since "maks" was meant to be "mask".
  const std::string name = path.empty() ? "built-in lesson" : std::filesystem::path(path).filename().string();
  for (const std::string& w : file.warnings) s.notices.push_back({name + ": " + w, 0, s.document});
  s.doc = std::move(file);
  s.path = path;
  s.disk = {};
  s.disk.stamp = stamp;
  s.doc_label.clear();
  s.original = s.doc.scenario;
  s.saved = s.doc.scenario;
  ++s.saved_version;
  s.history.reset(s.doc.scenario);
  ++s.revision;
  s.edit_in_progress = false;
  s.draft = {};
  s.shape_memory.clear();
  s.gesture = {};
  s.view.zoom_stage.reset();
  s.hovered.reset();
  s.pinned.reset();
  s.view.fit_pending = true;
  s.view.user_moved = false;
  // Big multi-head scenes start on one head: eight 1024x1024 lanes at once
  // would be too small to read (the bar switches to all heads).
  const attn::Dims d = attn::dims_of(s.doc.scenario);
  s.view.head = d.n_q >= 256 && d.n_heads > 1 ? 0 : -1;
  s.clock.t = 1e300;  // show the finished computation; clamped to the timeline's end
  s.clock.playing = false;
}

// Notices raised by edits go when the state they describe is undone.
void drop_undone_notices(AppState& s) {
  s.notices.erase(std::remove_if(s.notices.begin(), s.notices.end(),
                                 [&](const Notice& n) { return n.position != 0 && !s.history.leads_here(n.position); }),
                  s.notices.end());
}

void run(AppState& s, const PendingAction& a) {
  switch (a.kind) {
    case PendingAction::Kind::Open:
      if (opens_in_background(a.path)) request_background_open(s, a.path);
      else open(s, a.path);
      break;
    case PendingAction::Kind::OpenRead:
      if (a.scene) opened(s, *a.scene, a.path, a.stamp);
      break;
    case PendingAction::Kind::OpenBuiltin: open_builtin(s); break;
    case PendingAction::Kind::Quit: s.quit = true; break;
    case PendingAction::Kind::ShowScene:
      // A trained layer from the Train view: it becomes the document, shown
      // in the pipeline view on the head the user picked.
      if (a.scene) {
        show_scene(s, *a.scene, a.label);
        // the view that asked (the Train or the Model view) closes itself (then)
        s.view.head = a.head;
        s.view.fit_pending = true;
      }
      break;
    case PendingAction::Kind::None: break;
  }
  if (a.then) a.then(s);
}

}  // namespace

bool opens_in_background(const std::string& path) {
  std::error_code ec;
  const std::uintmax_t bytes = std::filesystem::file_size(path, ec);
  return !ec && bytes >= kBackgroundOpenBytes;
}

void request_background_open(AppState& s, const std::string& path) {
  s.open_request = path;
  s.open_requested_document = s.document;
  s.open_requested_revision = s.revision;
}

void background_read_arrived(AppState& s, attn::io::ScenarioFile file, const std::string& path, const DiskStamp& stamp) {
  // Unchanged since the read was asked for: any question about unsaved edits
  // was asked then (File > Open asks before it reads).
  if (s.document == s.open_requested_document && s.revision == s.open_requested_revision) {
    opened(s, std::move(file), path, stamp);
    return;
  }
  PendingAction read(PendingAction::Kind::OpenRead, path);
  read.scene = std::make_shared<const attn::io::ScenarioFile>(std::move(file));
  read.stamp = stamp;
  request(s, std::move(read));
}

void changed(AppState& s, bool do_commit) {
  ++s.revision;
  if (do_commit) commit(s);
}

void commit(AppState& s) {
  s.history.commit(s.doc.scenario);
  s.edit_in_progress = false;
}

void undo(AppState& s) {
  if (s.edit_in_progress) commit(s);
  s.draft = {};  // a half-typed field must not write itself back after undo
  if (!s.history.can_undo()) return;
  s.doc.scenario = s.history.undo();
  ++s.revision;
  drop_undone_notices(s);
}

void redo(AppState& s) {
  s.draft = {};
  if (!s.history.can_redo()) return;
  s.doc.scenario = s.history.redo();
  ++s.revision;
}

void reset(AppState& s) {
  s.doc.scenario = s.original;
  changed(s);
}

void randomise(AppState& s) {
  edit::randomise(s.doc.scenario, s.seed);
  changed(s);
}

void reshape(AppState& s, const std::function<void(attn::Scenario&)>& edit) {
  const attn::Scenario before = s.doc.scenario;
  s.shape_memory.remember(before);
  edit(s.doc.scenario);
  s.shape_memory.restore(before, s.doc.scenario);
  changed(s);
}

bool open(AppState& s, const std::string& path) {
  try {
    StampedScenario read = load_stamped_scenario(path, attn::io::machine_limits());
    opened(s, std::move(read.file), path, read.stamp);
    return true;
  } catch (const std::exception& e) {
    open_failed(s, e.what());
    return false;
  }
}

void opened(AppState& s, attn::io::ScenarioFile file, const std::string& path, const DiskStamp& stamp) {
  replace_document(s, std::move(file), path, stamp.exists || path.empty() ? stamp : disk_stamp(path));
  ++s.files_opened;  // the document is no longer a lesson's scene
  remember_recent(s, path);
  s.message.clear();
}

void open_failed(AppState& s, const std::string& error) {
  // load_scenario's message starts with the path already.
  const std::string kept = s.path.empty() ? "The built-in lesson stays open." : std::filesystem::path(s.path).filename().string() + " stays open" + (s.dirty() ? ", with your edits." : ".");
  s.message = "Could not open the file:\n" + error + "\n\n" + kept;
}


void show_scene(AppState& s, attn::io::ScenarioFile file, const std::string& label) {
  replace_document(s, std::move(file), "", {});
  s.doc_label = label;
}

void open_builtin(AppState& s) {
  replace_document(s, attn::io::parse_scenario(s.builtin_text), "", {});
  ++s.files_opened;
}

void open_model(AppState& s, const std::string& folder) { s.model_request = folder; }

bool save(AppState& s, const std::string& path) {
  if (s.edit_in_progress) commit(s);  // what is written is a state undo knows
  try {
    attn::io::save_scenario(path, s.doc);
    s.disk = {};
    s.disk.stamp = disk_stamp(path);  // read back: what a later save compares with
    s.path = path;
    s.saved = s.doc.scenario;
    ++s.saved_version;
    remember_recent(s, path);
    s.message.clear();
    return true;
  } catch (const std::exception& e) {
    s.message = std::string("Could not save. Your edits are still here.\n\n") + e.what();
    return false;
  }
}

bool is_builtin_file(const AppState& s, const std::string& path) {
  if (path.empty() || s.assets_dir.empty()) return false;
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path file = fs::weakly_canonical(path, ec);
  if (ec) return false;
  const fs::path dir = fs::weakly_canonical(s.assets_dir, ec);
  if (ec) return false;
  const auto [d, f] = std::mismatch(dir.begin(), dir.end(), file.begin(), file.end());
  return d == dir.end();
}

bool save_own_file(AppState& s) {
  // Someone else saved the file since it was read: writing now would throw
  // their change away unseen. A file that is gone is simply written again.
  if (compare_with_disk(s.disk.stamp, s.path, nullptr, /*read_bytes=*/true) == DiskChange::Changed) {
    s.disk.save_conflict = true;
    return false;
  }
  return save(s, s.path);
}

void save_or_ask(AppState& s) {
  if (!s.path.empty() && !is_builtin_file(s, s.path)) {
    save_own_file(s);
    return;
  }
  // A built-in file goes to the user's folder (the dialog's last, else Documents) under its own name.
  if (!s.path.empty()) s.dialog_path = files::start_path(s.files, files::Dialog::SaveScenario, std::filesystem::path(s.path).filename().string());
  s.save_dialog = true;
}

void ask_open(AppState& s) {
  s.dialog_path.clear();  // the dialog starts in its last folder
  s.open_dialog = true;
}

void ask_save_as(AppState& s) {
  s.dialog_path = s.path.empty() ? "" : is_builtin_file(s, s.path)
                                            ? files::start_path(s.files, files::Dialog::SaveScenario, std::filesystem::path(s.path).filename().string())
                                            : s.path;
  s.save_dialog = true;
}

void request(AppState& s, PendingAction action) {
  // A model folder (or its config.json) opens the Model view; the document stays.
  if (action.kind == PendingAction::Kind::Open)
    if (const std::optional<std::string> folder = model_folder_of(action.path)) {
      open_model(s, *folder);
      return;
    }
  if (!s.dirty()) {
    run(s, action);
    return;
  }
  s.pending = std::move(action);
  s.confirm_discard = true;
}

void answer(AppState& s, Answer a) {
  s.confirm_discard = false;
  const PendingAction pending = std::exchange(s.pending, {});
  switch (a) {
    case Answer::Cancel: return;
    case Answer::Discard: run(s, pending); return;
    case Answer::Save:
      if (s.path.empty() || is_builtin_file(s, s.path)) {
        // Nowhere to save yet (or a read-only built-in file): ask for a
        // path, then carry on from there.
        s.pending = pending;
        s.dialog_path.clear();
        save_or_ask(s);
      } else {
        s.pending = pending;  // kept while the file on disk is asked about
        if (save_own_file(s)) run(s, std::exchange(s.pending, {}));
      }
      return;
  }
}

void answer_save_conflict(AppState& s, ConflictAnswer a) {
  s.disk.save_conflict = false;
  switch (a) {
    case ConflictAnswer::Overwrite:
      if (save(s, s.path)) run(s, std::exchange(s.pending, {}));
      else s.pending = {};
      return;
    case ConflictAnswer::SaveAs:
      ask_save_as(s);  // the pending action, if any, goes on once saved (save_as_closed)
      return;
    case ConflictAnswer::ReloadAndCompare:
      s.pending = {};
      reload_from_disk(s);
      return;
    case ConflictAnswer::Cancel: s.pending = {}; return;
  }
}

void save_as_closed(AppState& s, bool saved) {
  const PendingAction pending = std::exchange(s.pending, {});
  if (saved) run(s, pending);
}

void request_quit(AppState& s) { request(s, {PendingAction::Kind::Quit, {}}); }

void restore_autosave(AppState& s, bool restore) {
  if (!s.restore_offer) return;
  const AutosaveRecord r = std::move(*s.restore_offer);
  s.restore_offer.reset();
  remove_autosave(s.restore_file);
  if (!restore) return;
  // Back into the document it belonged to, so Save writes where it should and
  // "edited" compares with that file; a file that is gone leaves a new scene.
  std::error_code exists_ec;
  if (!r.path.empty() && std::filesystem::exists(r.path, exists_ec) && open(s, r.path)) {
    s.doc.title = r.file.title;
    s.doc.description = r.file.description;
  } else if (r.path.empty() && r.label == "built-in lesson") {
    open_builtin(s);
  } else {
    // No file to compare with any more: the work is unsaved until saved.
    show_scene(s, r.file, r.label.empty() ? "restored work" : r.label + " (restored)");
    s.saved = attn::Scenario{};
    ++s.saved_version;
  }
  s.doc.scenario = r.file.scenario;
  changed(s);
  notify(s, "Restored the unsaved work of a run that did not close normally. Save it to keep it.");
}

void autosave_outcome(AppState& s, bool ok, const std::string& error) {
  if (ok) {
    if (s.autosave_failing.empty()) return;
    withdraw(s, std::exchange(s.autosave_failing, {}));
    return;
  }
  if (!s.autosave_failing.empty()) return;  // said already; not again every few seconds
  s.autosave_failing = "Crash recovery is off: the copy of your unsaved work could not be written (" + error +
                       "). Save your work to keep it; attnviz keeps trying.";
  notify(s, s.autosave_failing);
}

void remember_recent(AppState& s, const std::string& path) {
  std::error_code ec;
  std::filesystem::path full = std::filesystem::absolute(path, ec);
  const std::string entry = ec ? path : full.lexically_normal().string();
  s.recent.erase(std::remove(s.recent.begin(), s.recent.end(), entry), s.recent.end());
  s.recent.insert(s.recent.begin(), entry);
  if (s.recent.size() > 8) s.recent.resize(8);
}

std::string one_line(const std::string& message) {
  std::string out;
  for (char c : message) {
    if (c != '\n') out += c;
    else if (!out.empty() && out.back() != ' ') out += ' ';
  }
  return out;
}

void notify(AppState& s, const std::string& text) {
  const bool known = std::any_of(s.notices.begin(), s.notices.end(), [&](const Notice& n) { return n.text == text; });
  if (!known) s.notices.push_back({text, 0});
}

void withdraw(AppState& s, const std::string& text) {
  s.notices.erase(std::remove_if(s.notices.begin(), s.notices.end(), [&](const Notice& n) { return n.text == text; }),
                  s.notices.end());
}

void notify_edit(AppState& s, const std::string& text) {
  withdraw(s, text);
  s.notices.push_back({text, s.history.position()});
}

}  // namespace model::actions
