// The operations menus, shortcuts and panels share: mark an edit, commit it
// for undo, undo/redo, reset, randomise, open and save. Each keeps AppState
// consistent (revision, history, dirty flag, selection) in one place.
#pragma once

#include <string>

#include "app_state.hpp"

namespace viz::actions {

// A change of doc.scenario happened (recompute next); `commit` also records
// it as one undo step. Drags call changed(false) each frame and commit() once.
void changed(AppState& s, bool commit = true);
void commit(AppState& s);

void undo(AppState& s);
void redo(AppState& s);
void reset(AppState& s);
void randomise(AppState& s);

// Replaces the document; returns false and sets s.message on failure (the
// current document is kept).
bool open(AppState& s, const std::string& path);
void open_builtin(AppState& s);  // the embedded default lesson
bool save(AppState& s, const std::string& path);

void remember_recent(AppState& s, const std::string& path);
// Adds a line to the status panel's notices (once; dismissed by the user).
void notify(AppState& s, const std::string& text);
void request_quit(AppState& s);  // asks first when there are unsaved edits

}  // namespace viz::actions
