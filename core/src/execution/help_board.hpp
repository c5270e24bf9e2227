// Internal: threads that have run out of heads help the heads still running.
//
// A trace runs its heads in parallel, one head a thread, and each head's
// products and softmax run in fixed blocks of rows. With fewer heads than
// cores (8 heads on 16), or heads that do not divide evenly among the cores
// (12 heads on 8: four run alone at the end), cores sat idle while the last
// heads ran on one core each. Here the threads of the head loop that find no
// head left join the row-block loops of the heads still running, block by
// block. The blocks are the same whoever runs them, so every result is the
// same bit for bit on any number of threads, as before.
#pragma once

#include <atomic>
#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <vector>

namespace attn::detail {

class HelpBoard {
 public:
  explicit HelpBoard(int heads) : heads_left_(heads) {}
  HelpBoard(const HelpBoard&) = delete;
  HelpBoard& operator=(const HelpBoard&) = delete;

  // f(0) .. f(items - 1) on the calling thread and on any helper that joins,
  // returning once every call has returned (the first exception is rethrown).
  void share(int items, const std::function<void(int)>& f);
  // A head has finished (or was skipped): helpers stop once none is left.
  void head_done();
  // Runs items of shared loops until every head is done.
  void help();

  // The board of the head loop this thread is running a head for, if any:
  // for_each_item shares its blocks through it.
  static HelpBoard* current();

  // Makes `board` current() on this thread for the lifetime of the scope.
  class Scope {
   public:
    explicit Scope(HelpBoard* board);
    ~Scope();
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    HelpBoard* previous_;
  };

 private:
  struct Job {
    const std::function<void(int)>* f = nullptr;
    int items = 0;
    std::atomic<int> next{0}, done{0};
    int visitors = 0;  // helpers inside it, under mutex_: the owner waits for 0
    std::exception_ptr error;
  };
  void run_items(Job& job);

  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<Job*> jobs_;  // shared loops with items left, under mutex_
  int heads_left_;          // under mutex_
};

}  // namespace attn::detail
