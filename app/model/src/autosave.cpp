// Autosave files: the scenario in its published file form, wrapped with
// where it came from. A process is "still running" when kill(pid, 0)
// succeeds, so two windows never take each other's work.
#include "viz/autosave.hpp"

#include <signal.h>

#include <algorithm>
#include <exception>
#include <filesystem>
#include <system_error>

#include "attn/io/text_file.hpp"

namespace viz {

namespace fs = std::filesystem;

std::string autosave_file(const std::string& dir, long pid) {
  return (fs::path(dir) / ("autosave-" + std::to_string(pid) + ".json")).string();
}

void write_autosave(const std::string& file, const AutosaveRecord& r) {
  nlohmann::json j;
  j["format"] = "attnviz-autosave";
  j["path"] = r.path;
  j["label"] = r.label;
  j["time"] = r.time;
  j["scenario"] = attn::io::scenario_to_json(r.file);
  std::error_code ec;
  fs::create_directories(fs::path(file).parent_path(), ec);
  attn::io::write_text_atomically(file, j.dump());
}

std::optional<AutosaveRecord> read_autosave(const std::string& file) {
  try {
    const nlohmann::json j = nlohmann::json::parse(attn::io::read_text(file));
    if (!j.is_object() || j.value("format", "") != "attnviz-autosave") return std::nullopt;
    AutosaveRecord r;
    r.path = j.value("path", "");
    r.label = j.value("label", "");
    r.time = j.value("time", std::int64_t{0});
    r.file = attn::io::parse_scenario(j.at("scenario").dump());
    return r;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

std::vector<std::string> orphaned_autosaves(const std::string& dir, long self_pid) {
  std::vector<std::pair<fs::file_time_type, std::string>> found;
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (name.rfind("autosave-", 0) != 0 || e.path().extension() != ".json") continue;
    long pid = 0;
    try {
      pid = std::stol(name.substr(9));
    } catch (const std::exception&) {
      continue;
    }
    if (pid == self_pid || (pid > 0 && ::kill(static_cast<pid_t>(pid), 0) == 0)) continue;  // still running
    found.emplace_back(fs::last_write_time(e.path(), ec), e.path().string());
  }
  std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<std::string> out;
  for (auto& f : found) out.push_back(std::move(f.second));
  return out;
}

}  // namespace viz
