// The class session shared by the web server's threads and the window. Every
// access goes through one lock, held only to read or change the session
// (never while a request is read or a reply written), and each change bumps
// a revision the window compares to know when to redraw the tally.
#pragma once

#include <cstdint>
#include <functional>
#include <mutex>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "model/classroom/class_session.hpp"

namespace model {

class ClassRoom {
 public:
  explicit ClassRoom(ClassSession session) : session_(std::move(session)) {}

  std::string code() const;
  // A student's requests: "" or why refused.
  std::string join(const std::string& device, const std::string& nickname);
  std::string answer(const std::string& device, const nlohmann::json& request);
  // What one student's page shows: the question in phone form, its phase,
  // their own answer, and after the reveal the right answer and whether
  // theirs was. No other student's answer or nickname is in it.
  nlohmann::json student_view(const std::string& device) const;

  // The teacher's side (the window): changes the session under the lock.
  void change(const std::function<void(ClassSession&)>& edit);
  // Reads the session under the lock without copying it (the window's
  // counts and tally, autosave's JSON): `look` must not call back in.
  void read(const std::function<void(const ClassSession&)>& look) const;
  // A copy of the session (the CSV, tests).
  ClassSession snapshot() const;
  std::uint64_t revision() const;

 private:
  mutable std::mutex mutex_;
  ClassSession session_;
  std::uint64_t revision_ = 0;
};

}  // namespace model
