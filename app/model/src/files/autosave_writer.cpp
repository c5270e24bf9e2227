// The autosave worker: waits for a snapshot or a removal, does it outside
// the lock, and repeats. A failed write is reported (take_outcome) and the
// next snapshot tries again.
#include "model/files/autosave_writer.hpp"

#include <cstdio>
#include <exception>
#include <utility>

namespace model {

AutosaveWriter::AutosaveWriter(std::string file) : file_(std::move(file)), lock_(file_), thread_([this] { run(); }) {}

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

void AutosaveWriter::set_on_written(std::function<void()> wake) {
  std::lock_guard<std::mutex> lock(mutex_);
  on_written_ = std::move(wake);
}

std::optional<AutosaveWriter::Outcome> AutosaveWriter::take_outcome() {
  std::lock_guard<std::mutex> lock(mutex_);
  return std::exchange(outcome_, std::nullopt);
}

void AutosaveWriter::wait_idle() {
  std::unique_lock<std::mutex> lock(mutex_);
  idle_.wait(lock, [this] { return !pending_ && !remove_ && !working_; });
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
      working_ = job || remove;
    }
    std::optional<Outcome> outcome;
    if (job) {
      outcome.emplace();
      try {
        write_autosave(file_, *job);
      } catch (const std::exception& e) {
        outcome->ok = false;
        outcome->error = e.what();
      }
    } else if (remove) {
      std::remove(file_.c_str());
    }
    std::function<void()> wake;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (outcome) outcome_ = outcome;
      working_ = false;
      if (outcome) wake = on_written_;
    }
    idle_.notify_all();
    if (wake) wake();
    if (stop && !job) return;
  }
}

}  // namespace model
