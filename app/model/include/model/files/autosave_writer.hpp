// Writes autosave copies on a background thread, so a large scene's copy
// never stalls a frame. The UI thread hands over a snapshot; a newer one
// replaces one not yet written; remove() deletes the file once work is saved.
// Each write's outcome is kept for the UI thread (take_outcome): a copy that
// cannot be written (a full disk) means crash recovery is off, and the user
// must be told in the window, not on a terminal they may not have.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "model/files/autosave.hpp"
#include "model/tasks/task_runner.hpp"

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
  void wait_idle() { runner_.wait_idle(); }  // tests: until nothing is pending

 private:
  // A record to write, or nullopt to delete the copy; a removal has no outcome.
  using Step = std::optional<AutosaveRecord>;
  std::optional<Outcome> run(const Step& step) const;

  std::string file_;
  AutosaveLock lock_;  // held while this run lives: its copy is not an orphan
  // TaskPolicy::Latest: a newer snapshot replaces one not yet written, but
  // a write in progress finishes (a copy is never left half-written).
  TaskRunner<Step, std::optional<Outcome>> runner_;  // last: its thread uses the rest
};

}  // namespace model
