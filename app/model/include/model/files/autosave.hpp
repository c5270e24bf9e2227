// Unsaved work survives a crash: while a document has unsaved edits, a copy
// is written every few seconds to the config folder (one file per running
// app, named after its process), and removed once the work is saved or the
// app quits normally. At start, a copy left by a process that is no longer
// running (its lock is free) is offered back.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "attn/io/scenario_file.hpp"

namespace model {

struct AutosaveRecord {
  std::string path;       // the file the work belongs to; "" for a scene with no file
  std::string label;      // what the app called it ("built-in lesson", a lesson step)
  std::int64_t time = 0;  // seconds since the epoch when it was written
  attn::io::ScenarioFile file;
};

// <dir>/autosave-<pid>-<start time>.json: unique to this run even when a
// later process is given the PID of one that crashed.
std::string autosave_file(const std::string& dir, long pid);
// The lock beside it: <dir>/autosave-<pid>-<start time>.lock.
std::string autosave_lock_file(const std::string& autosave_file);

// A running app's claim on its autosave copy: an exclusive flock on the lock
// file, held for the life of the process. The kernel drops it the moment
// the process dies, however it dies, so a copy whose lock can be taken was
// left by a run that is gone (a PID cannot say that: a killed process's PID
// still answers while it is an unreaped zombie, and may be reused).
class AutosaveLock {
 public:
  explicit AutosaveLock(const std::string& autosave_file);
  ~AutosaveLock();  // unlocks and deletes the lock file (a normal quit)
  AutosaveLock(const AutosaveLock&) = delete;
  AutosaveLock& operator=(const AutosaveLock&) = delete;
  bool held() const { return fd_ >= 0; }

 private:
  std::string path_;
  int fd_ = -1;
};

// Writes atomically; throws attn::io::FormatError.
void write_autosave(const std::string& file, const AutosaveRecord& record);
// Reads one; nullopt when it cannot be read (the caller discards it).
std::optional<AutosaveRecord> read_autosave(const std::string& file);
// Deletes a copy and its lock file (restored, discarded or unreadable).
void remove_autosave(const std::string& file);

// Autosave files in `dir` whose run is gone (no process holds their lock;
// this process's own lock is held), newest first.
std::vector<std::string> orphaned_autosaves(const std::string& dir);

}  // namespace model
