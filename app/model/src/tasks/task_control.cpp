// Cancel and progress of one running task (task_control.hpp).
#include "model/tasks/task_control.hpp"

#include <algorithm>
#include <utility>

#include "attn/compute/trace.hpp"

namespace model {

void TaskControl::throw_if_cancelled() const {
  if (cancelled_) throw attn::Cancelled();
}

bool TaskControl::wait_cancelled_for(std::chrono::milliseconds limit) const {
  std::unique_lock<std::mutex> lock(mutex_);
  return cancel_cv_.wait_for(lock, limit, [&] { return cancelled_.load(); });
}

void TaskControl::link_cancel(std::atomic<bool>& flag) {
  std::lock_guard<std::mutex> lock(mutex_);
  linked_.push_back(&flag);
  if (cancelled_) flag = true;
}

void TaskControl::cancel() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    cancelled_ = true;
    for (std::atomic<bool>* flag : linked_) *flag = true;
  }
  cancel_cv_.notify_all();
}

void TaskControl::forget_job() {
  std::lock_guard<std::mutex> lock(mutex_);
  linked_.clear();
  gauge_ = nullptr;
}

void TaskControl::report(int done, int total, std::string text) {
  std::lock_guard<std::mutex> lock(mutex_);
  reported_ = {done, total, std::move(text)};
}

void TaskControl::report_from(std::function<TaskProgress()> gauge) {
  std::lock_guard<std::mutex> lock(mutex_);
  gauge_ = std::move(gauge);
}

TaskProgress TaskControl::progress() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return gauge_ ? gauge_() : reported_;
}

}  // namespace model
