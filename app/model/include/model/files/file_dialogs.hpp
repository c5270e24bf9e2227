// The file dialogs' decisions, without a window: where each kind of dialog
// starts (the folder it was last used in, else the user's Documents, or
// Pictures for pictures, never wherever attnviz happened to be started),
// what it lists, and what it remembers once a file is chosen. The dialogs
// (app/viz/panels/file_browser_view.cpp) and the app's desktop chooser use these.
#pragma once

#include <string>

#include "model/files/file_dialog_state.hpp"
#include "model/files/file_browser.hpp"

namespace model::files {

enum class Dialog { OpenScenario, SaveScenario, OpenLesson, Export, Slides };

const char* kind_name(Dialog d);  // "open", "save", "lesson", "export", "slides": the settings' keys

// The folder a dialog starts in.
std::string start_folder(const FileDialogs& f, Dialog d);
// The path it starts with: start_folder()/name (the folder alone for an empty name).
std::string start_path(const FileDialogs& f, Dialog d, const std::string& name);

// The file types a dialog lists (the slides' folder dialog lists folders only).
FileFilter filter_of(Dialog d);
// An export's types follow the name typed: "x.gif" lists GIFs; else all picture and data types.
FileFilter export_filter(const std::string& path);

// The dialog's places: Home, the user's folders, the bundled examples for
// a scenario or lesson dialog (from `assets_dir`), the recent folders, the file system.
std::vector<Place> places_for(const FileDialogs& f, const std::string& assets_dir, Dialog d);

// Lists `folder` for the open dialog (with its filter, or all files when
// the user chose so, and hidden files when asked).
void browse(FileDialogs& f, const std::string& folder, const FileFilter& filter);

// A path was chosen in a dialog of this kind: its folder becomes the
// dialog's last folder and the newest recent folder; an export also keeps
// the file's name for next time.
void chosen(FileDialogs& f, Dialog d, const std::string& path);

// What the dialog asks the desktop's chooser for.
ChooserRequest desktop_request(Dialog d, const std::string& path);

}  // namespace model::files
