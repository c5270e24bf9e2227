// The autosave worker: waits for a snapshot or a removal, does it outside
// the lock, and repeats. A failed write is dropped (the next one retries).
#include "shell/autosave_writer.hpp"

#include <cstdio>
#include <exception>
#include <utility>

namespace viz {

AutosaveWriter::AutosaveWriter(std::string file) : file_(std::move(file)), thread_([this] { run(); }) {}

AutosaveWriter::~AutosaveWriter() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_one();
  thread_.join();
}

void AutosaveWriter::submit(AutosaveRecord record) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    pending_ = std::move(record);
    remove_ = false;
  }
  wake_.notify_one();
}

void AutosaveWriter::remove() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    pending_.reset();
    remove_ = true;
  }
  wake_.notify_one();
}

void AutosaveWriter::run() {
  for (;;) {
    std::optional<AutosaveRecord> job;
    bool remove = false, stop = false;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [this] { return stop_ || pending_ || remove_; });
      job = std::exchange(pending_, std::nullopt);
      remove = std::exchange(remove_, false);
      stop = stop_;
    }
    if (job) {
      try {
        write_autosave(file_, *job);
      } catch (const std::exception& e) {
        std::fprintf(stderr, "attnviz: could not write the autosave copy: %s\n", e.what());
      }
    } else if (remove) {
      std::remove(file_.c_str());
    }
    if (stop && !job) return;
  }
}

}  // namespace viz
