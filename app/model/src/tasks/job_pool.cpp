// The app's job threads (job_pool.hpp). Turns wait in one queue, in the
// order posted; a thread takes the oldest. A thread that ends (it lingered
// with nothing to do) leaves its id behind, and the next post joins it, so
// no std::thread is ever detached or left unjoined.
#include "model/tasks/job_pool.hpp"

#include <algorithm>
#include <thread>
#include <utility>

#include "attn/execution/parallel.hpp"
#include "attn/platform/priority.hpp"
#include "attn/platform/thread_name.hpp"

namespace model {

namespace {

// The owner whose turn runs on this thread (null on other threads, and on
// a pool thread between turns).
thread_local const void* g_current_owner = nullptr;
thread_local bool g_on_pool_thread = false;

// How much lower than the window's a job thread runs (the nice value added).
constexpr int kBelowWindow = 10;

}  // namespace

JobPool& JobPool::shared() {
  static JobPool* pool = new JobPool(std::max(2, attn::usable_cores()), std::chrono::seconds(2));
  return *pool;
}

JobPool::JobPool(int max_threads, std::chrono::milliseconds linger)
    : max_threads_(std::max(1, max_threads)), linger_(linger), window_nice_(attn::platform::this_threads_nice()) {}

JobPool::~JobPool() {
  std::vector<std::thread> threads;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    quit_ = true;
    waiting_.clear();
    threads.swap(threads_);
  }
  wake_.notify_all();
  for (std::thread& t : threads) t.join();
}

void JobPool::post(const void* owner, std::function<void()> turn) {
  std::vector<std::thread> ended;  // joined outside the lock
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (quit_) return;
    waiting_.push_back({owner, std::move(turn)});
    // More turns than sleeping threads to take them: one more thread.
    if (static_cast<int>(waiting_.size()) > parked_ && alive_ < max_threads_) {
      ++alive_;
      threads_.emplace_back([this] { work(); });
    }
    for (std::thread::id id : ended_) {
      auto it = std::find_if(threads_.begin(), threads_.end(), [&](const std::thread& t) { return t.get_id() == id; });
      if (it == threads_.end()) continue;
      ended.push_back(std::move(*it));
      threads_.erase(it);
    }
    ended_.clear();
  }
  wake_.notify_one();
  for (std::thread& t : ended) t.join();
}

void JobPool::run_turn(Turn& turn, std::unique_lock<std::mutex>& lock) {
  running_.push_back(turn.owner);
  lock.unlock();
  const void* outer = g_current_owner;  // a turn run inside another's wait
  g_current_owner = turn.owner;
  try {
    turn.run();
  } catch (...) {
    // A runner's turn catches its job's errors; nothing else should reach here,
    // and the pool's thread must outlive whatever did.
  }
  g_current_owner = outer;
  turn.run = nullptr;  // what the turn holds is freed before the lock
  lock.lock();
  running_.erase(std::find(running_.begin(), running_.end(), turn.owner));
  changed_.notify_all();
}

void JobPool::work() {
  attn::platform::name_this_thread("attn-job");
  // From the window's priority, not the starting thread's: a turn that posts
  // another starts threads from a lowered one.
  attn::platform::set_this_threads_nice(window_nice_ + kBelowWindow);
  g_on_pool_thread = true;
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    if (!waiting_.empty()) {
      Turn turn = std::move(waiting_.front());
      waiting_.pop_front();
      run_turn(turn, lock);
      continue;
    }
    if (quit_) break;
    // The first thread to park stays; the others end after lingering.
    const bool stays = parked_ == 0;
    ++parked_;
    const auto ready = [&] { return quit_ || !waiting_.empty(); };
    bool woken = true;
    if (stays)
      wake_.wait(lock, ready);
    else
      woken = wake_.wait_for(lock, linger_, ready);
    --parked_;
    if (!woken) break;
  }
  --alive_;
  if (!quit_) ended_.push_back(std::this_thread::get_id());
}

bool JobPool::run_waiting(const void* owner) {
  std::unique_lock<std::mutex> lock(mutex_);
  auto it = std::find_if(waiting_.begin(), waiting_.end(), [&](const Turn& t) { return t.owner == owner; });
  if (it == waiting_.end()) return false;
  Turn turn = std::move(*it);
  waiting_.erase(it);
  run_turn(turn, lock);
  return true;
}

void JobPool::withdraw(const void* owner) {
  std::unique_lock<std::mutex> lock(mutex_);
  waiting_.erase(std::remove_if(waiting_.begin(), waiting_.end(), [&](const Turn& t) { return t.owner == owner; }),
                 waiting_.end());
  if (g_current_owner == owner) return;
  changed_.wait(lock, [&] { return std::find(running_.begin(), running_.end(), owner) == running_.end(); });
}

int JobPool::threads() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return alive_;
}

bool JobPool::on_pool_thread() { return g_on_pool_thread; }

}  // namespace model
