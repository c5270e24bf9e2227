// The background reader behind File ▸ Open for large scenes. Requests are
// numbered: a result is kept only if no newer request (or cancel) came while
// it was being read, so the window never installs a file the user has
// already moved on from.
#include "model/files/file_loader.hpp"

#include <exception>

#include "attn/io/machine_limits.hpp"

namespace model {

FileLoader::FileLoader() : thread_([this] { run(); }) {}

FileLoader::~FileLoader() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void FileLoader::set_on_ready(std::function<void()> wake) {
  std::lock_guard<std::mutex> lock(mutex_);
  on_ready_ = std::move(wake);
}

void FileLoader::start(std::string path) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    pending_ = std::move(path);
    ++wanted_;
    done_.reset();
  }
  wake_.notify_all();
}

void FileLoader::cancel() {
  std::lock_guard<std::mutex> lock(mutex_);
  pending_.reset();
  ++wanted_;  // the read in progress, if any, is no longer wanted
  done_.reset();
}

bool FileLoader::busy() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return pending_.has_value() || (working_ && started_ == wanted_ && !read_);
}

std::string FileLoader::reading() const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (pending_) return *pending_;
  return working_ && started_ == wanted_ && !read_ ? reading_ : std::string();
}

std::optional<FileLoader::Loaded> FileLoader::take() {
  std::lock_guard<std::mutex> lock(mutex_);
  std::optional<Loaded> out = std::move(done_);
  done_.reset();
  return out;
}

bool FileLoader::has_result() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return done_.has_value();
}

void FileLoader::wait_idle() {
  std::unique_lock<std::mutex> lock(mutex_);
  idle_.wait(lock, [&] { return !pending_ && !working_; });
}

void FileLoader::run() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    wake_.wait(lock, [&] { return stop_ || pending_.has_value(); });
    if (stop_) return;
    reading_ = std::move(*pending_);
    pending_.reset();
    started_ = wanted_;
    working_ = true;
    read_ = false;
    const std::string path = reading_;
    lock.unlock();
    Loaded result;
    result.path = path;
    try {
      StampedScenario read = load_stamped_scenario(path, attn::io::machine_limits());
      result.file = std::move(read.file);
      result.stamp = read.stamp;
    } catch (const std::exception& e) {
      result.error = e.what();
    }
    lock.lock();
    const bool wanted = started_ == wanted_;
    if (wanted) done_ = std::move(result);
    read_ = true;
    // Wake the window before saying idle: wait_idle() returning means the
    // result is there and the window has been told.
    if (wanted && on_ready_) {
      const std::function<void()> wake = on_ready_;
      lock.unlock();
      wake();
      lock.lock();
    }
    working_ = false;
    idle_.notify_all();
  }
}

}  // namespace model
