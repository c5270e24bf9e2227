// Writes autosave copies on a background thread, so a large scene's copy
// never stalls a frame. The UI thread hands over a snapshot; a newer one
// replaces one not yet written; remove() deletes the file once work is saved.
// Each write's outcome is kept for the UI thread (take_outcome): a copy that
// cannot be written (a full disk) means crash recovery is off, and the user
// must be told in the window, not on a terminal they may not have.
#pragma once

#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "model/files/autosave.hpp"

namespace model {

class AutosaveWriter {
 public:
  explicit AutosaveWriter(std::string file);
  ~AutosaveWriter();  // finishes a pending write, then stops
  AutosaveWriter(const AutosaveWriter&) = delete;
  AutosaveWriter& operator=(const AutosaveWriter&) = delete;

  void submit(AutosaveRecord record);
  void remove();
  const std::string& file() const { return file_; }
  void set_on_written(std::function<void()> wake);  // called on the worker after each write

  struct Outcome {
    bool ok = true;
    std::string error;  // why the copy could not be written
  };
  // The last write's outcome, once; nullopt when none since the last call.
  std::optional<Outcome> take_outcome();
  void wait_idle();  // tests: until nothing is pending

 private:
  void run();

  std::string file_;
  AutosaveLock lock_;  // held while this run lives: its copy is not an orphan
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable idle_;
  std::function<void()> on_written_;
  std::optional<AutosaveRecord> pending_;
  std::optional<Outcome> outcome_;
  bool remove_ = false, stop_ = false, working_ = false;
  std::thread thread_;  // last: starts once the rest is ready
};

}  // namespace model
