// The file dialogs' shared state, part of AppState (one dialog is open at
// a time): the in-app browser's listing, the folders remembered (settings),
// and the desktop's own chooser, which a dialog asks for and the app runs
// (desktop_chooser.hpp). Plain data; file_dialogs.hpp decides with it.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/files/desktop_chooser.hpp"
#include "model/files/file_browser.hpp"

namespace model {

struct FileDialogs {
  FolderListing listing;  // the folder the open dialog shows
  std::string listing_key;  // what it was listed for (folder, types, hidden files)
  int filter = 0;         // 0: the dialog's own file types, 1: all files
  bool show_hidden = false;
  std::vector<std::string> recent_folders;          // newest first
  std::map<std::string, std::string> last_folder;  // per purpose: "open", "save", "lesson", "export", "slides"
  std::string last_export_name;                    // the file name last exported to
  bool desktop_available = false;                  // the app found zenity or kdialog
  std::string desktop_tool;                        // its name, for the dialog's words
  // Ask: the dialog wants the desktop's chooser for `desktop_request`;
  // the app starts it (Choosing) and puts the outcome in desktop_result.
  // Browse: this dialog uses the in-app browser.
  enum class Desktop { Idle, Ask, Choosing, Browse } desktop = Desktop::Idle;
  ChooserRequest desktop_request;
  std::optional<ChooserResult> desktop_result;
  bool desktop_cancel = false;  // the dialog closed or chose its own browser: the app closes the chooser
  std::string desktop_error;    // the desktop chooser's last failure, said in the in-app dialog
};

}  // namespace model
