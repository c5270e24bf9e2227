// What the app does when the open file changes on disk under it (another
// window or program saved it), and how the user answers. Nothing here loses
// work: a reload is one undoable edit, so Ctrl+Z gives the user's version
// back, and Reload and compare keeps that version beside the file's.
#pragma once

#include "model/document/app_state.hpp"
#include "model/files/disk_watcher.hpp"

namespace model::actions {

// The watcher's news about the open file (ignored when about another file).
void disk_report(AppState& s, const DiskReport& report);
// The status panel's answers: keep this version (Save will still ask
// before writing over the file), or reload the file.
void keep_this_version(AppState& s);
// Reads the open file again into the document, as one undoable edit; the
// file becomes what "unsaved" compares with. With unsaved edits, the
// compare view opens: A the user's version, B the file's. False (with
// s.message) when the file cannot be read; the document is then untouched.
bool reload_from_disk(AppState& s);

// Save found that someone else changed the file since it was read.
enum class ConflictAnswer { Overwrite, SaveAs, ReloadAndCompare, Cancel };
void answer_save_conflict(AppState& s, ConflictAnswer a);

}  // namespace model::actions
