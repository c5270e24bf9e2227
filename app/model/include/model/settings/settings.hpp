// What attnviz remembers between runs: colours and theme, the UI size, the
// recent files and the last lesson, as one JSON file in the user's config
// folder (config_dir()/settings.json). Reading never fails: a file that is
// not valid JSON is set aside and the defaults are used, and a field with a
// bad value falls back to its default; both come with a notice to show.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/colour/colour_options.hpp"

namespace model {

constexpr int kMinUiScalePercent = 75, kMaxUiScalePercent = 250;
constexpr size_t kMaxRecentFiles = 8;

struct Settings {
  ColourOptions colour;
  int ui_scale_percent = 0;          // panel text and widgets, 75..250; 0: not chosen, follow the monitor
  std::vector<std::string> recent;   // absolute paths, newest first
  std::string last_lesson;           // absolute path of the last lesson opened
  // The file dialogs: recent folders (newest first), the last folder of
  // each kind of dialog ("open", "save", "lesson", "export", "slides"),
  // and the name last exported to.
  std::vector<std::string> recent_folders;
  std::map<std::string, std::string> last_folder;
  std::string last_export_name;
  bool operator==(const Settings& o) const {
    return colour == o.colour && ui_scale_percent == o.ui_scale_percent && recent == o.recent && last_lesson == o.last_lesson &&
           recent_folders == o.recent_folders && last_folder == o.last_folder && last_export_name == o.last_export_name;
  }
  bool operator!=(const Settings& o) const { return !(*this == o); }
};

nlohmann::json settings_json(const Settings& s);
// Reads what it can; each field that cannot be used adds a line to `problems`.
Settings settings_from_json(const nlohmann::json& j, std::vector<std::string>& problems);

class SettingsStore {
 public:
  SettingsStore() = default;  // remembers nothing (tests, screenshots, benchmarks)
  // Loads `path`. With no settings file yet, the recent list of an older
  // attnviz (recent.txt beside it) is taken over, and recent.txt removed once
  // settings.json is written. A corrupt file is renamed *.corrupt and a
  // fresh one with the defaults written in its place. A file that cannot be
  // read at all (permission denied, a symlink loop) is not damaged: it is
  // left as it is, the defaults apply, and this run writes no settings.
  explicit SettingsStore(std::string path);

  const Settings& settings() const { return saved_; }
  // Writes `s` atomically when it differs from what was last saved; a write
  // that fails is reported once in problem() and retried on the next change.
  void save(const Settings& s);
  // Why something was reset or not saved, to show once; "" when all is well.
  std::string take_problem();

 private:
  void write(const Settings& s);
  void unreadable(const std::string& reason);

  std::string path_;
  Settings saved_;
  std::string problem_;
  bool migrated_ = false;  // recent.txt to remove once settings.json exists
  bool write_failed_ = false;
  bool leave_alone_ = false;  // the file could not be read: never written over
};

}  // namespace model
