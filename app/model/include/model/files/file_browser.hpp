// What the in-app file chooser shows, without a window: a folder's
// entries (folders first, then the files the filter lets through), the
// places beside them (home, the user's Documents and Pictures, recent
// folders), and where a dialog starts (the user's folders, not wherever
// attnviz was started). Used where the desktop has no chooser of its own
// (desktop_chooser.hpp), and always under test.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace model {

// The user's Documents or Pictures folder: from the XDG user-dirs file
// (~/.config/user-dirs.dirs, which names them in the user's language), else
// ~/Documents or ~/Pictures when they exist, else home, else the current folder.
enum class UserFolder { Documents, Pictures };
std::string user_folder(UserFolder which);

// Files a dialog lists: extensions with their dot, lower-case; none: all files.
struct FileFilter {
  std::string label;                    // "Scenarios (.json)"
  std::vector<std::string> extensions;  // {".json"}
  bool accepts(const std::string& name) const;  // case-insensitive
};

struct FolderEntry {
  std::string name;
  bool folder = false;
};

// A folder's entries: sub-folders, then files the filter accepts, each
// sorted by name ignoring case; hidden ones (".name") only when asked. At
// most kMaxListed entries: a huge folder lists the first ones and says how
// many more there are. A folder that cannot be read says why in `error`.
constexpr size_t kMaxListed = 5000;
struct FolderListing {
  std::string folder;  // absolute, normalised
  std::vector<FolderEntry> entries;
  size_t left_out = 0;
  std::string error;
};
FolderListing list_folder(const std::string& folder, const FileFilter& filter, bool show_hidden);

// The places column: Home, Documents, Pictures and Desktop (those that
// exist), then the recent folders that still exist, then the file system's root.
struct Place {
  std::string label, path;
};
std::vector<Place> places(const std::vector<std::string>& recent_folders);

// The folder a typed path names or lies in, absolute ("" when neither
// exists): "/home/a/x.json" -> "/home/a"; "/home/a" -> "/home/a". A
// relative path is taken from the current folder.
std::string folder_of(const std::string& path);

// Keeps `folder` first in the list of recent folders (no repeats, at most kMaxRecentFolders).
constexpr size_t kMaxRecentFolders = 8;
void remember_folder(std::vector<std::string>& recent, const std::string& folder);

}  // namespace model
