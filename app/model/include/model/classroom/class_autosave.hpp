// A class session kept on disk while it runs, so a crash (or a quit before
// the teacher ended it) loses no answer: the next start offers to resume it
// under the same code, at the same lesson step, on the same port.
#pragma once

#include <optional>
#include <string>

#include "model/classroom/class_session.hpp"

namespace model {

struct ClassAutosave {
  ClassSession session{""};
  std::string lesson;   // the lesson file's path
  int step = 0;         // the lesson step (0-based) the class was on
  std::string address;  // what the server listened on, and its port
  int port = 0;
  long long time = 0;   // seconds since the epoch when written
};

// <config dir>/class-session.json
std::string class_autosave_file(const std::string& config_dir);

// Writes atomically; "" or why it could not be written.
std::string write_class_autosave(const std::string& file, const ClassAutosave& a);
// Reads one; nullopt with `why` set when it is missing, damaged or ended.
std::optional<ClassAutosave> read_class_autosave(const std::string& file, std::string* why = nullptr);
void remove_class_autosave(const std::string& file);

}  // namespace model
