// The in-app file chooser's model (file_browser.hpp).
#include "model/files/file_browser.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <system_error>

namespace model {
namespace {

namespace fs = std::filesystem;

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

fs::path home_folder() {
  const char* home = std::getenv("HOME");
  std::error_code ec;
  if (home && *home && fs::is_directory(home, ec)) return fs::path(home);
  return fs::current_path(ec);
}

// XDG_DOCUMENTS_DIR="$HOME/Documents" from ~/.config/user-dirs.dirs (the
// format xdg-user-dirs writes: one KEY="value" a line, $HOME the only variable).
std::string xdg_user_dir(const std::string& key) {
  const char* config = std::getenv("XDG_CONFIG_HOME");
  const fs::path file = (config && *config ? fs::path(config) : home_folder() / ".config") / "user-dirs.dirs";
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(key + "=", 0) != 0) continue;
    std::string value = line.substr(key.size() + 1);
    if (value.size() < 2 || value.front() != '"' || value.back() != '"') return "";
    value = value.substr(1, value.size() - 2);
    if (value.rfind("$HOME", 0) == 0) value = home_folder().string() + value.substr(5);
    // xdg-user-dirs sets a folder it disables to home itself: not a Documents folder then.
    fs::path dir = fs::path(value).lexically_normal();
    if (!dir.has_filename() && dir != dir.root_path()) dir = dir.parent_path();  // "$HOME/" -> home
    if (!dir.is_absolute() || dir == home_folder().lexically_normal()) return "";
    return dir.string();
  }
  return "";
}

// Names as people sort them: ignoring case, and runs of digits by their
// value ("f2" before "f10"); names equal that way fall back to plain order.
bool natural_less(const std::string& a, const std::string& b) {
  size_t i = 0, j = 0;
  auto digit = [](char c) { return c >= '0' && c <= '9'; };
  while (i < a.size() && j < b.size()) {
    if (digit(a[i]) && digit(b[j])) {
      size_t ie = i, je = j;
      while (ie < a.size() && digit(a[ie])) ++ie;
      while (je < b.size() && digit(b[je])) ++je;
      // Compare the values without converting (any length): skip leading zeros, then length, then digits.
      size_t is = i, js = j;
      while (is + 1 < ie && a[is] == '0') ++is;
      while (js + 1 < je && b[js] == '0') ++js;
      if (ie - is != je - js) return ie - is < je - js;
      const int c = a.compare(is, ie - is, b, js, je - js);
      if (c != 0) return c < 0;
      i = ie, j = je;
      continue;
    }
    const char ca = static_cast<char>(std::tolower(static_cast<unsigned char>(a[i])));
    const char cb = static_cast<char>(std::tolower(static_cast<unsigned char>(b[j])));
    if (ca != cb) return ca < cb;
    ++i, ++j;
  }
  if ((i < a.size()) != (j < b.size())) return j < b.size();
  return a < b;
}

bool is_dir(const fs::path& p) {
  std::error_code ec;
  return fs::is_directory(p, ec);
}

}  // namespace

std::string user_folder(UserFolder which) {
  const std::string xdg = xdg_user_dir(which == UserFolder::Documents ? "XDG_DOCUMENTS_DIR" : "XDG_PICTURES_DIR");
  if (!xdg.empty() && is_dir(xdg)) return xdg;
  const fs::path home = home_folder();
  const fs::path named = home / (which == UserFolder::Documents ? "Documents" : "Pictures");
  return is_dir(named) ? named.string() : home.string();
}

bool FileFilter::accepts(const std::string& name) const {
  if (extensions.empty()) return true;
  const std::string n = lower(name);
  for (const std::string& ext : extensions)
    if (n.size() > ext.size() && n.compare(n.size() - ext.size(), ext.size(), ext) == 0) return true;
  return false;
}

FolderListing list_folder(const std::string& folder, const FileFilter& filter, bool show_hidden) {
  FolderListing out;
  std::error_code ec;
  fs::path dir = fs::absolute(folder.empty() ? fs::path(".") : fs::path(folder), ec).lexically_normal();
  if (dir.has_filename() == false && dir != dir.root_path()) dir = dir.parent_path();  // "/a/b/" -> "/a/b"
  out.folder = dir.string();
  fs::directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec);
  if (ec) {
    out.error = "cannot read " + out.folder + ": " + ec.message();
    return out;
  }
  for (; it != fs::directory_iterator(); it.increment(ec)) {
    if (ec) {
      out.error = "stopped reading " + out.folder + ": " + ec.message();
      break;
    }
    const std::string name = it->path().filename().string();
    if (!show_hidden && !name.empty() && name[0] == '.') continue;
    std::error_code type_ec;
    const bool folder_entry = it->is_directory(type_ec);  // follows links, as choosers do
    if (!folder_entry && !filter.accepts(name)) continue;
    out.entries.push_back({name, folder_entry});
  }
  // Every name sorted, then cut: a huge folder shows its first names in
  // order (and all its folders), not whichever the disk returned first.
  std::sort(out.entries.begin(), out.entries.end(), [](const FolderEntry& a, const FolderEntry& b) {
    if (a.folder != b.folder) return a.folder;
    return natural_less(a.name, b.name);
  });
  if (out.entries.size() > kMaxListed) {
    out.left_out = out.entries.size() - kMaxListed;
    out.entries.resize(kMaxListed);
  }
  return out;
}

std::vector<Place> places(const std::vector<std::string>& recent_folders) {
  std::vector<Place> out;
  const fs::path home = home_folder();
  out.push_back({"Home", home.string()});
  auto add = [&](const std::string& label, const std::string& path) {
    if (path.empty() || !is_dir(path)) return;
    for (const Place& p : out)
      if (p.path == path) return;
    out.push_back({label, path});
  };
  add("Documents", user_folder(UserFolder::Documents));
  add("Pictures", user_folder(UserFolder::Pictures));
  add("Desktop", (home / "Desktop").string());
  for (const std::string& r : recent_folders) add(fs::path(r).filename().string(), r);
  add("File system", home.root_path().string());
  return out;
}

std::string folder_of(const std::string& path) {
  if (path.empty()) return "";
  std::error_code ec;
  std::string expanded = path;
  if (expanded == "~" || expanded.rfind("~/", 0) == 0) expanded = home_folder().string() + expanded.substr(1);
  const fs::path p = fs::absolute(expanded, ec).lexically_normal();
  if (ec) return "";
  if (is_dir(p)) return p.has_filename() || p == p.root_path() ? p.string() : p.parent_path().string();
  const fs::path parent = p.parent_path();
  return is_dir(parent) ? parent.string() : "";
}

void remember_folder(std::vector<std::string>& recent, const std::string& folder) {
  if (folder.empty()) return;
  recent.erase(std::remove(recent.begin(), recent.end(), folder), recent.end());
  recent.insert(recent.begin(), folder);
  if (recent.size() > kMaxRecentFolders) recent.resize(kMaxRecentFolders);
}

}  // namespace model
