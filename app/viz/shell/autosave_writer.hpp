// Writes autosave copies on a background thread, so a large scene's copy
// never stalls a frame. The UI thread hands over a snapshot; a newer one
// replaces one not yet written; remove() deletes the file once work is saved.
#pragma once

#include <condition_variable>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "viz/autosave.hpp"

namespace viz {

class AutosaveWriter {
 public:
  explicit AutosaveWriter(std::string file);
  ~AutosaveWriter();  // finishes a pending write, then stops
  AutosaveWriter(const AutosaveWriter&) = delete;
  AutosaveWriter& operator=(const AutosaveWriter&) = delete;

  void submit(AutosaveRecord record);
  void remove();
  const std::string& file() const { return file_; }

 private:
  void run();

  std::string file_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::optional<AutosaveRecord> pending_;
  bool remove_ = false, stop_ = false;
  std::thread thread_;  // last: starts once the rest is ready
};

}  // namespace viz
