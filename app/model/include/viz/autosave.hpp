// Unsaved work survives a crash: while a document has unsaved edits, a copy
// is written every few seconds to the config folder (one file per running
// app, named after its process), and removed once the work is saved or the
// app quits normally. At start, a copy left by a process that is no longer
// running is offered back.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "attn/io/scenario_file.hpp"

namespace viz {

struct AutosaveRecord {
  std::string path;       // the file the work belongs to; "" for a scene with no file
  std::string label;      // what the app called it ("built-in lesson", a lesson step)
  std::int64_t time = 0;  // seconds since the epoch when it was written
  attn::io::ScenarioFile file;
};

// <dir>/autosave-<pid>.json
std::string autosave_file(const std::string& dir, long pid);

// Writes atomically; throws attn::io::FormatError.
void write_autosave(const std::string& file, const AutosaveRecord& record);
// Reads one; nullopt when it cannot be read (the caller discards it).
std::optional<AutosaveRecord> read_autosave(const std::string& file);

// Autosave files in `dir` left by processes that are no longer running
// (never this process's own), newest first.
std::vector<std::string> orphaned_autosaves(const std::string& dir, long self_pid);

}  // namespace viz
