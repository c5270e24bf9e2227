// Settings file: reading, checking each field, atomic writes, and the one-time
// move from recent.txt. Settings are a convenience: nothing here may stop the app.
#include "model/settings/settings.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <system_error>
#include <utility>

#include "attn/io/text_file.hpp"

namespace model {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string short_text(const std::string& s) { return s.size() > 120 ? s.substr(0, 117) + "..." : s; }

template <typename T, typename Named>
void read_name(const json& j, const char* key, T& out, Named named, const char* (*name_of)(T), const std::string& choices,
               std::vector<std::string>& problems) {
  if (!j.contains(key)) return;
  const json& v = j[key];
  if (v.is_string())
    if (const auto value = named(v.get<std::string>())) {
      out = *value;
      return;
    }
  problems.push_back(std::string(key) + " " + short_text(v.dump()) + " is not one of " + choices + "; using " + name_of(out));
}

void read_bool(const json& j, const char* key, bool& out, std::vector<std::string>& problems) {
  if (!j.contains(key)) return;
  if (j[key].is_boolean()) out = j[key].get<bool>();
  else problems.push_back(std::string(key) + " must be true or false, not " + short_text(j[key].dump()));
}

const char* map_name(ColourmapId id) { return colourmap(id).name; }

std::vector<std::string> absolute_paths(const std::vector<std::string>& paths) {
  std::vector<std::string> out;
  for (const std::string& p : paths)
    if (!p.empty() && fs::path(p).is_absolute() && std::find(out.begin(), out.end(), p) == out.end() && out.size() < kMaxRecentFiles)
      out.push_back(p);
  return out;
}

}  // namespace

json settings_json(const Settings& s) {
  return {{"format", "attnviz-settings"},
          {"version", 1},
          {"theme", theme_name(s.colour.theme)},
          {"colormap_signed", map_name(s.colour.signed_map)},
          {"colormap_probabilities", map_name(s.colour.probability_map)},
          {"contrast", contrast_name(s.colour.contrast)},
          {"log_weights", s.colour.log_weights},
          {"shared_range", s.colour.shared_range},
          {"ui_scale_percent", s.ui_scale_percent},
          {"recent_files", s.recent},
          {"last_lesson", s.last_lesson},
          {"recent_folders", s.recent_folders},
          {"last_folder", s.last_folder},
          {"last_export_name", s.last_export_name}};
}

Settings settings_from_json(const json& j, std::vector<std::string>& problems) {
  Settings s;
  if (!j.is_object()) throw std::runtime_error("not a JSON object");
  ColourOptions& c = s.colour;
  const std::string maps = colourmap_names();
  read_name(j, "theme", c.theme, theme_named, theme_name, "light, dark, high-contrast", problems);
  read_name(j, "colormap_signed", c.signed_map, colourmap_named, map_name, maps, problems);
  read_name(j, "colormap_probabilities", c.probability_map, colourmap_named, map_name, maps, problems);
  read_name(j, "contrast", c.contrast, contrast_named, contrast_name, "global, grid, row, p99", problems);
  read_bool(j, "log_weights", c.log_weights, problems);
  read_bool(j, "shared_range", c.shared_range, problems);
  if (j.contains("ui_scale_percent")) {
    const json& v = j["ui_scale_percent"];
    const bool unset = v.is_number_integer() && v.get<long long>() == 0;
    if (unset || (v.is_number_integer() && v.get<long long>() >= kMinUiScalePercent && v.get<long long>() <= kMaxUiScalePercent))
      s.ui_scale_percent = v.get<int>();
    else
      problems.push_back("ui_scale_percent " + short_text(v.dump()) + " is not a whole number from " +
                         std::to_string(kMinUiScalePercent) + " to " + std::to_string(kMaxUiScalePercent) +
                         "; the UI follows the monitor's scale");
  }
  if (j.contains("recent_files")) {
    const json& v = j["recent_files"];
    std::vector<std::string> paths;
    if (v.is_array())
      for (const json& p : v)
        if (p.is_string()) paths.push_back(p.get<std::string>());
    if (!v.is_array() || paths.size() != v.size()) problems.push_back("recent_files must be a list of file paths");
    s.recent = absolute_paths(paths);
  }
  if (j.contains("last_lesson")) {
    if (j["last_lesson"].is_string() && (j["last_lesson"].get<std::string>().empty() || fs::path(j["last_lesson"].get<std::string>()).is_absolute()))
      s.last_lesson = j["last_lesson"].get<std::string>();
    else problems.push_back("last_lesson must be the absolute path of a lesson file");
  }
  if (j.contains("recent_folders")) {
    const json& v = j["recent_folders"];
    bool ok = v.is_array();
    if (ok) {
      for (const json& p : v) {
        if (p.is_string() && fs::path(p.get<std::string>()).is_absolute()) s.recent_folders.push_back(p.get<std::string>());
        else ok = false;
      }
    }
    if (!ok) problems.push_back("recent_folders must be a list of absolute folder paths");
  }
  if (j.contains("last_folder")) {
    const json& v = j["last_folder"];
    bool ok = v.is_object();
    if (ok) {
      for (const auto& [kind, p] : v.items()) {
        if (p.is_string() && fs::path(p.get<std::string>()).is_absolute()) s.last_folder[kind] = p.get<std::string>();
        else ok = false;
      }
    }
    if (!ok) problems.push_back("last_folder must map each dialog to an absolute folder path");
  }
  if (j.contains("last_export_name")) {
    const json& v = j["last_export_name"];
    if (v.is_string() && v.get<std::string>().find('/') == std::string::npos) s.last_export_name = v.get<std::string>();
    else problems.push_back("last_export_name must be a file name");
  }
  return s;
}

SettingsStore::SettingsStore(std::string path) : path_(std::move(path)) {
  std::error_code ec;
  if (path_.empty()) return;
  // exists() is false for a symlink loop too (with an error): only a plain
  // "no such file" means there are no settings yet.
  const fs::file_status status = fs::status(path_, ec);
  if (ec && ec != std::errc::no_such_file_or_directory && ec != std::errc::not_a_directory) {
    unreadable(ec.message());
    return;
  }
  if (!fs::exists(status)) {
    // An older attnviz kept only the recent files, one per line.
    const fs::path old = fs::path(path_).parent_path() / "recent.txt";
    std::ifstream in(old);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    saved_.recent = absolute_paths(lines);
    migrated_ = static_cast<bool>(in.eof()) && fs::exists(old, ec);
    return;
  }
  // Cannot be opened (permissions, a folder in its place): not damaged. What
  // read_text refuses once open (NUL bytes, not JSON) is damage.
  if (const std::string why = attn::io::why_unreadable(path_); !why.empty()) {
    unreadable(why);
    return;
  }
  try {
    std::vector<std::string> problems;
    saved_ = settings_from_json(attn::io::parse_app_json(attn::io::read_text(path_), "settings"), problems);
    if (!problems.empty()) {
      problem_ = "Some settings in " + path_ + " could not be used and are back to their defaults:";
      for (const std::string& p : problems) problem_ += "\n  " + p;
    }
  } catch (const std::exception& e) {
    saved_ = Settings{};
    fs::rename(path_, path_ + ".corrupt", ec);
    problem_ = "Settings in " + path_ + " are damaged (" + std::string(e.what()) + "); the defaults are used. The old file is kept as " +
               path_ + ".corrupt.";
    write(saved_);  // a fresh, valid file in its place
  }
}

void SettingsStore::unreadable(const std::string& reason) {
  saved_ = Settings{};
  leave_alone_ = true;
  problem_ = "Settings in " + path_ + " could not be read (" + reason +
             "). The defaults apply, and the file is left as it is; this run saves no settings.";
}

void SettingsStore::save(const Settings& s) {
  if (s == saved_ || leave_alone_) return;
  saved_ = s;  // even when the write fails: it is retried on the next change, not every frame
  write(s);
}

void SettingsStore::write(const Settings& s) {
  if (path_.empty()) return;
  try {
    std::error_code ec;
    fs::create_directories(fs::path(path_).parent_path(), ec);
    attn::io::write_text_atomically(path_, settings_json(s).dump(2) + "\n");
    if (migrated_) fs::remove(fs::path(path_).parent_path() / "recent.txt", ec);
    migrated_ = false;
  } catch (const std::exception& e) {
    if (std::exchange(write_failed_, true)) return;  // said once is enough
    problem_ += std::string(problem_.empty() ? "" : "\n") + "Settings could not be saved (" + short_text(e.what()) +
                "); they apply until attnviz closes.";
  }
}

std::string SettingsStore::take_problem() { return std::exchange(problem_, {}); }

}  // namespace model
