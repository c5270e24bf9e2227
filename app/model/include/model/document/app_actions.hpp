// The operations menus, shortcuts and panels share: mark an edit, commit it
// for undo, undo/redo, reset, randomise, reshape, open and save, and the
// "unsaved edits" question. Each keeps AppState consistent (revision,
// history, edited flag, notices, selection) in one place.
#pragma once

#include <functional>
#include <string>
#include <utility>

#include "model/document/app_state.hpp"

namespace model::actions {

// A change of doc.scenario happened (recompute next); `commit` also records
// it as one undo step. Drags call changed(false) each frame and commit() once.
void changed(AppState& s, bool commit = true);
void commit(AppState& s);

// Whether an edit is one undo step now, or a step of a drag that commits
// once when it ends (commit()).
enum class Step { Commit, Live };

// Edits the document's scenario and marks the change in one call, so no
// edit can forget to make everything downstream recompute:
//   apply_edit(state, [&](attn::Scenario& sc) { edit::rename_token(sc, which, i, name); });
template <class Edit>
void apply_edit(AppState& s, Edit&& edit, Step step = Step::Commit) {
  std::forward<Edit>(edit)(s.doc.scenario);
  changed(s, step == Step::Commit);
}

void undo(AppState& s);
void redo(AppState& s);
void reset(AppState& s);
void randomise(AppState& s);

// A shape edit (tokens, d_model, d_k, heads...) as one undo step. What it
// cuts off is remembered, and what it adds is restored from memory where
// known, so 4 -> 2 -> 4 tokens gives back the same two tokens.
void reshape(AppState& s, const std::function<void(attn::Scenario&)>& edit);

// Opens a file as the new document (with a fresh undo history), even when
// its numbers cannot be computed: the model then shows why. Returns false
// and sets s.message when the file cannot be read or parsed; the current
// document, its edits and its history are then kept untouched.
bool open(AppState& s, const std::string& path);
// The two ends of open(), for a file read elsewhere (in the background):
// `file` becomes the document, or `error` (load_scenario's message) is
// shown with the current document kept.
// `stamp`: the bytes that were read (disk_stamp.hpp); when not given, the
// file as it is now.
void opened(AppState& s, attn::io::ScenarioFile file, const std::string& path, const DiskStamp& stamp = {});
void open_failed(AppState& s, const std::string& error);
// Large files (kBackgroundOpenBytes and up) are read in the background
// (s.open_request, for model::FileLoader); small ones parse in milliseconds.
bool opens_in_background(const std::string& path);
// Asks for `path` to be read in the background, noting the document it will replace.
void request_background_open(AppState& s, const std::string& path);
// A file read in the background arrives. It becomes the document at once,
// unless the document changed while it was read: then the unsaved-changes
// question comes first (when there are unsaved changes), as for any open.
void background_read_arrived(AppState& s, attn::io::ScenarioFile file, const std::string& path, const DiskStamp& stamp = {});
void open_builtin(AppState& s);  // s.builtin_text, the embedded default lesson
// Asks the Model view to open a model folder (a new folder starts loading;
// the Train view gives way to it); the document stays.
void open_model(AppState& s, const std::string& folder);
// Shows a scene that is not a file of its own (a lesson step), named `label`.
void show_scene(AppState& s, attn::io::ScenarioFile file, const std::string& label);
bool save(AppState& s, const std::string& path);
// File > Save and Ctrl+S: saves over the open file, or asks where (Save as)
// when there is none or it is one of the app's own built-in files, which
// are read-only: the dialog then offers the same name in the user's
// Documents folder (else home).
void save_or_ask(AppState& s);
// Saves over the open file, unless someone else changed it since it was
// read: then asks first (s.disk.save_conflict, disk_actions.hpp).
bool save_own_file(AppState& s);
// File > Open and Save as: the dialog, starting in the user's folder (a
// built-in file's name goes there too; an own file is offered where it is).
void ask_open(AppState& s);
void ask_save_as(AppState& s);
// Whether `path` is one of the files attnviz ships (inside s.assets_dir).
bool is_builtin_file(const AppState& s, const std::string& path);

// Runs `action` now, or, when there are unsaved edits, asks first
// (Save / Discard / Cancel) and runs it after the answer.
void request(AppState& s, PendingAction action);
enum class Answer { Save, Discard, Cancel };
void answer(AppState& s, Answer a);
// The Save-as dialog raised by Answer::Save on an unsaved document closed:
// continue the pending action when it saved, drop it otherwise.
void save_as_closed(AppState& s, bool saved);
void request_quit(AppState& s);

// Answers the restore offer: puts the crashed run's work back as unsaved
// edits of the document it belonged to (or drops it), then deletes its file.
void restore_autosave(AppState& s, bool restore);

// An autosave copy was written (ok) or could not be (error): the first
// failure is said in the window, once; a later success takes it back.
void autosave_outcome(AppState& s, bool ok, const std::string& error);

void remember_recent(AppState& s, const std::string& path);  // stored absolute
// A dialog message on one line, for the terminal.
std::string one_line(const std::string& message);

// Adds a line to the status panel's notices (once; dismissed by the user).
void notify(AppState& s, const std::string& text);
// Takes a notice back (what it said is no longer so).
void withdraw(AppState& s, const std::string& text);
// A notice about the edit just committed: it goes away when that edit is undone.
void notify_edit(AppState& s, const std::string& text);

}  // namespace model::actions
