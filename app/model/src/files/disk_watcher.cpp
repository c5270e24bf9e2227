// The watcher's loop (see disk_watcher.hpp). It reports a change of what is
// on disk once, not every look: a file someone else saved stays "changed"
// until the document is reloaded or saved, and the app is told only when it
// changes again.
#include "model/files/disk_watcher.hpp"

#include <chrono>
#include <utility>

#include "attn/platform/thread_name.hpp"

namespace model {

DiskWatcher::DiskWatcher(int interval_ms) : interval_ms_(interval_ms), thread_([this] { run(); }) {}

DiskWatcher::~DiskWatcher() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void DiskWatcher::set_on_change(std::function<void()> wake) {
  std::lock_guard<std::mutex> lock(mutex_);
  on_change_ = std::move(wake);
}

void DiskWatcher::watch(const std::string& path, const DiskStamp& known) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (path == path_ && known.same_metadata(known_) && known.hash == known_.hash) return;
    path_ = path;
    known_ = known;
    last_seen_ = known;
    report_.reset();
    posted_ = DiskChange::Same;
    posted_hash_ = 0;
    ++generation_;
  }
  wake_.notify_all();
}

std::optional<DiskReport> DiskWatcher::take() {
  std::lock_guard<std::mutex> lock(mutex_);
  return std::exchange(report_, std::nullopt);
}

void DiskWatcher::run() {
  attn::platform::name_this_thread("attn-watch");
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    wake_.wait_for(lock, std::chrono::milliseconds(interval_ms_), [&] { return stop_; });
    if (stop_) return;
    if (path_.empty()) continue;
    const std::string path = path_;
    const DiskStamp known = known_, seen = last_seen_;
    const std::uint64_t generation = generation_;
    lock.unlock();
    // Outside the lock: a hash of a large file takes a while.
    DiskStamp now = disk_metadata(path);
    DiskChange change = DiskChange::Same;
    const bool moved = !now.same_metadata(seen) || (seen.exists && seen.hash == 0);
    if (moved) change = compare_with_disk(known, path, &now);
    lock.lock();
    if (!moved || generation != generation_ || stop_) continue;  // nothing new, or watching something else now
    last_seen_ = now;
    if (change == posted_ && (change != DiskChange::Changed || now.hash == posted_hash_)) continue;  // said already
    posted_ = change;
    posted_hash_ = now.hash;
    report_ = DiskReport{path, change, now};
    if (on_change_) on_change_();
  }
}

}  // namespace model
