// The help board (help_board.hpp). Jobs live on their owners' stacks: a
// helper finds one only in the list, under the lock, and counts itself in
// (visitors), so the owner, which takes its job out of the list first, can
// wait until no helper is inside before the job goes away.
#include "execution/help_board.hpp"

#include <algorithm>

namespace attn::detail {

namespace {
thread_local HelpBoard* current_board = nullptr;
}  // namespace

HelpBoard* HelpBoard::current() { return current_board; }

HelpBoard::Scope::Scope(HelpBoard* board) : previous_(current_board) { current_board = board; }
HelpBoard::Scope::~Scope() { current_board = previous_; }

void HelpBoard::run_items(Job& job) {
  for (int i = job.next++; i < job.items; i = job.next++) {
    try {
      (*job.f)(i);
    } catch (...) {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!job.error) job.error = std::current_exception();
    }
    if (++job.done == job.items) {
      std::lock_guard<std::mutex> lock(mutex_);
      changed_.notify_all();
    }
  }
}

void HelpBoard::share(int items, const std::function<void(int)>& f) {
  Job job;
  job.f = &f;
  job.items = items;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    jobs_.push_back(&job);
  }
  changed_.notify_all();
  run_items(job);
  std::unique_lock<std::mutex> lock(mutex_);
  jobs_.erase(std::find(jobs_.begin(), jobs_.end(), &job));
  changed_.wait(lock, [&] { return job.done.load() == job.items && job.visitors == 0; });
  if (job.error) std::rethrow_exception(job.error);
}

void HelpBoard::head_done() {
  std::lock_guard<std::mutex> lock(mutex_);
  --heads_left_;
  changed_.notify_all();
}

void HelpBoard::help() {
  // Loops run by a helper do not share further (their items are leaves).
  const Scope none(nullptr);
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    if (heads_left_ <= 0) return;
    const auto open = std::find_if(jobs_.begin(), jobs_.end(), [](const Job* j) { return j->next.load() < j->items; });
    if (open == jobs_.end()) {
      changed_.wait(lock);
      continue;
    }
    Job& job = **open;
    ++job.visitors;
    lock.unlock();
    run_items(job);
    lock.lock();
    --job.visitors;
    changed_.notify_all();
  }
}

}  // namespace attn::detail
