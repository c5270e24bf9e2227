// The waiting storage of large matrices (recycled_storage.hpp): a list under
// one lock, newest last. Only whole matrices move in and out (Eigen keeps
// the buffer when a matrix is moved, and when it is resized to the same
// number of entries), so nothing here touches their pages.
#include "execution/recycled_storage.hpp"

#include <chrono>
#include <mutex>
#include <vector>

#include "attn/execution/progress.hpp"

namespace attn::detail {

namespace {

using clock_type = std::chrono::steady_clock;

struct Waiting {
  Mat m;
  clock_type::time_point since;
};

class Store {
 public:
  void give(Mat m) {
    std::vector<Waiting> freed;  // freed outside the lock: unmapping 33 MB takes milliseconds
    {
      std::lock_guard<std::mutex> lock(mutex_);
      expire(freed);
      const std::size_t bytes = bytes_of(m);
      while (!waiting_.empty() && total_ + bytes > max_bytes_) {
        total_ -= bytes_of(waiting_.front().m);
        freed.push_back(std::move(waiting_.front()));
        waiting_.erase(waiting_.begin());
      }
      if (bytes > max_bytes_) return;  // m is freed on return
      total_ += bytes;
      waiting_.push_back({std::move(m), clock_type::now()});
    }
  }

  bool take(Mat& out, Eigen::Index rows, Eigen::Index cols) {
    std::vector<Waiting> freed;
    std::lock_guard<std::mutex> lock(mutex_);
    expire(freed);
    for (auto it = waiting_.rbegin(); it != waiting_.rend(); ++it)
      if (it->m.size() == rows * cols) {
        out = std::move(it->m);
        out.resize(rows, cols);  // the same number of entries: the same buffer
        total_ -= bytes_of(out);
        waiting_.erase(std::next(it).base());
        return true;
      }
    return false;
  }

  void release() {
    std::vector<Waiting> freed;
    std::lock_guard<std::mutex> lock(mutex_);
    freed.swap(waiting_);
    total_ = 0;
  }

  std::size_t bytes() {
    std::lock_guard<std::mutex> lock(mutex_);
    return total_;
  }

  void set_limits(std::size_t max_bytes, double max_seconds) {
    std::lock_guard<std::mutex> lock(mutex_);
    max_bytes_ = max_bytes;
    max_wait_ = std::chrono::duration_cast<clock_type::duration>(std::chrono::duration<double>(max_seconds));
  }

 private:
  static std::size_t bytes_of(const Mat& m) { return static_cast<std::size_t>(m.size()) * sizeof(double); }

  // Moves storage that has waited too long into `freed` (under the lock).
  void expire(std::vector<Waiting>& freed) {
    const auto limit = clock_type::now() - max_wait_;
    while (!waiting_.empty() && waiting_.front().since < limit) {
      total_ -= bytes_of(waiting_.front().m);
      freed.push_back(std::move(waiting_.front()));
      waiting_.erase(waiting_.begin());
    }
  }

  std::mutex mutex_;
  std::vector<Waiting> waiting_;
  std::size_t total_ = 0;
  std::size_t max_bytes_ = std::size_t{1} << 30;
  clock_type::duration max_wait_ = std::chrono::seconds(2);
};

Store& store() {
  static Store* s = new Store;  // never destroyed: traces may be freed during static destruction
  return *s;
}

}  // namespace

std::shared_ptr<const Mat> share_recycled(Mat m) {
  if (static_cast<std::size_t>(m.size()) * sizeof(double) < kRecycleFrom) return std::make_shared<const Mat>(std::move(m));
  return std::shared_ptr<const Mat>(new Mat(std::move(m)), [](const Mat* p) {
    store().give(std::move(*const_cast<Mat*>(p)));  // made non-const by share_recycled itself
    delete p;
  });
}

bool take_recycled(Mat& out, Eigen::Index rows, Eigen::Index cols) {
  // Small matrices never wait (share_recycled): no lock for them.
  if (static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols) * sizeof(double) < kRecycleFrom) return false;
  return store().take(out, rows, cols);
}

std::size_t recycled_bytes() { return store().bytes(); }

void set_recycle_limits(std::size_t max_bytes, double max_seconds) { store().set_limits(max_bytes, max_seconds); }

}  // namespace attn::detail

namespace attn {

void release_recycled_storage() { detail::store().release(); }

}  // namespace attn
