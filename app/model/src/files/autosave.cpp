// Autosave files: the scenario in its published file form, wrapped with
// where it came from. A run is "still running" while it holds its copy's
// lock (AutosaveLock), so two windows never take each other's work and a
// crashed run's work is offered back at the very next start.
#include "model/files/autosave.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cerrno>
#include <exception>
#include <filesystem>
#include <system_error>

#include "attn/io/text_file.hpp"

namespace model {

namespace fs = std::filesystem;

std::string autosave_file(const std::string& dir, long pid) {
  const auto started = std::chrono::system_clock::now().time_since_epoch();
  const long long ns = std::chrono::duration_cast<std::chrono::nanoseconds>(started).count();
  return (fs::path(dir) / ("autosave-" + std::to_string(pid) + "-" + std::to_string(ns) + ".json")).string();
}

std::string autosave_lock_file(const std::string& autosave_file) {
  return fs::path(autosave_file).replace_extension(".lock").string();
}

AutosaveLock::AutosaveLock(const std::string& autosave_file) : path_(autosave_lock_file(autosave_file)) {
  std::error_code ec;
  fs::create_directories(fs::path(path_).parent_path(), ec);
  fd_ = ::open(path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd_ >= 0 && ::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd_);
    fd_ = -1;
  }
}

AutosaveLock::~AutosaveLock() {
  if (fd_ < 0) return;
  ::unlink(path_.c_str());  // before unlocking, so no one takes a lock on a file about to go
  ::close(fd_);
}

namespace {

// Whether a process holds the lock of this autosave copy. No lock file: an
// older attnviz wrote it (or the run is gone): not held.
bool lock_held(const std::string& autosave_file) {
  const std::string lock = autosave_lock_file(autosave_file);
  const int fd = ::open(lock.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const bool held = ::flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK;
  ::close(fd);  // drops the lock if this probe took it
  return held;
}

}  // namespace

void remove_autosave(const std::string& file) {
  std::error_code ec;
  fs::remove(file, ec);
  fs::remove(autosave_lock_file(file), ec);
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

std::vector<std::string> orphaned_autosaves(const std::string& dir) {
  std::vector<std::pair<fs::file_time_type, std::string>> found;
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (name.rfind("autosave-", 0) != 0) continue;
    if (e.path().extension() == ".lock") {
      // A run that crashed before its first copy left only its lock.
      std::error_code gone;
      if (!fs::exists(fs::path(e.path()).replace_extension(".json"), gone) && !lock_held(e.path().string()))
        fs::remove(e.path(), gone);
      continue;
    }
    if (e.path().extension() != ".json") continue;
    if (lock_held(e.path().string())) continue;  // its run is still going (this one included)
    found.emplace_back(fs::last_write_time(e.path(), ec), e.path().string());
  }
  std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<std::string> out;
  for (auto& f : found) out.push_back(std::move(f.second));
  return out;
}

}  // namespace model
