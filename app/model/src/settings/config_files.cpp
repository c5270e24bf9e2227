// Config folder and lesson progress. Progress is a convenience: a write that
// fails is dropped silently, and a file that cannot be read never stops the app.
#include "model/settings/config_files.hpp"

#include <cstdlib>
#include <exception>
#include <stdexcept>
#include <filesystem>
#include <system_error>

#include "attn/io/text_file.hpp"

namespace model {

std::string config_dir() {
  namespace fs = std::filesystem;
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg) return (fs::path(xdg) / "attnviz").string();
  if (const char* home = std::getenv("HOME"); home && *home) return (fs::path(home) / ".config" / "attnviz").string();
  return {};
}

ProgressStore::ProgressStore(std::string path) : path_(std::move(path)) {
  std::error_code ec;
  if (path_.empty()) return;
  const std::filesystem::file_status status = std::filesystem::status(path_, ec);
  const bool missing = !ec ? !std::filesystem::exists(status)
                            : ec == std::errc::no_such_file_or_directory || ec == std::errc::not_a_directory;
  if (missing) return;
  if (const std::string why = ec ? ec.message() : attn::io::why_unreadable(path_); !why.empty()) {
    // Not damaged, only unreadable (permissions, a symlink loop): left as it
    // is, and not written over in this run.
    path_.clear();
    problem_ = "Lesson progress could not be read (" + why + "); answers in this run are not kept. The file is left as it is.";
    return;
  }
  try {
    all_ = attn::io::parse_app_json(attn::io::read_text(path_), "lesson progress");
    if (!all_.is_object()) throw std::runtime_error("not a JSON object");
  } catch (const std::exception& e) {
    all_ = nlohmann::json::object();
    std::filesystem::rename(path_, path_ + ".corrupt", ec);
    problem_ = "Lesson progress was damaged (" + std::string(e.what()) + "); it starts afresh. The old file is kept as " +
               path_ + ".corrupt.";
  }
}

nlohmann::json ProgressStore::get(const std::string& lesson_id) const {
  const auto it = all_.find(lesson_id);
  return it == all_.end() ? nlohmann::json::object() : *it;
}

void ProgressStore::put(const std::string& lesson_id, const nlohmann::json& progress) {
  all_[lesson_id] = progress;
  if (path_.empty()) return;
  try {
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::path(path_).parent_path(), ec);
    attn::io::write_text_atomically(path_, all_.dump(1));
  } catch (const std::exception&) {
    // Progress is a convenience: the lesson goes on without it.
  }
}

}  // namespace model
