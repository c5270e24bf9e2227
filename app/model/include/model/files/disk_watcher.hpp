// Watches the open file for changes made by someone else, on its own
// thread: a stat twice a second, and a read and hash only when the
// metadata moved, so a large file never stalls the window and an idle
// window is woken only when there is something to say.
#pragma once

#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "model/files/disk_stamp.hpp"

namespace model {

struct DiskReport {
  std::string path;
  DiskChange change = DiskChange::Same;  // against the stamp given to watch()
  DiskStamp now;                         // what is on disk
};

class DiskWatcher {
 public:
  explicit DiskWatcher(int interval_ms = 500);
  ~DiskWatcher();
  DiskWatcher(const DiskWatcher&) = delete;
  DiskWatcher& operator=(const DiskWatcher&) = delete;

  void set_on_change(std::function<void()> wake);  // called on the worker thread
  // Watch `path` against `known` (what the document holds); "" stops. The
  // same path and stamp again costs nothing.
  void watch(const std::string& path, const DiskStamp& known);
  // A change of what is on disk since the last report (or since watch()).
  std::optional<DiskReport> take();

 private:
  void run();

  const int interval_ms_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::function<void()> on_change_;
  std::string path_;
  DiskStamp known_, last_seen_;  // last_seen_: on disk at the last look
  std::uint64_t generation_ = 0;  // bumped by watch() with something new
  std::optional<DiskReport> report_;
  DiskChange posted_ = DiskChange::Same;  // the last report made (the app may have taken it)
  std::uint64_t posted_hash_ = 0;
  bool stop_ = false;
  std::thread thread_;  // last: starts once the rest is ready
};

}  // namespace model
