// Threads without a head help the heads still running
// (core/src/execution/help_board.hpp): every item of a shared loop runs
// exactly once, a helper really runs some (checked without timing: the
// owner's first item waits for a helper to run another), an exception in
// an item reaches the loop's owner, and helpers leave once every head is
// done. That a trace is the same bit for bit with help is in
// test_update_trace.cpp (three heads on two threads).
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "attn/execution/parallel.hpp"
#include "execution/head_pool.hpp"
#include "execution/help_board.hpp"

using attn::detail::HelpBoard;

namespace {

// Runs `heads` heads on one thread each plus `helpers` helper threads, as
// run_heads does; head h runs body(h) with the board current.
void run_with_helpers(HelpBoard& board, int heads, int helpers, const std::function<void(int)>& body) {
  std::vector<std::thread> threads;
  for (int h = 0; h < heads; ++h)
    threads.emplace_back([&, h] {
      {
        const HelpBoard::Scope scope(&board);
        body(h);
      }
      board.head_done();
    });
  for (int i = 0; i < helpers; ++i) threads.emplace_back([&] { board.help(); });
  for (std::thread& t : threads) t.join();
}

}  // namespace

TEST_CASE("help board: every shared item runs once, and a helper runs some") {
  HelpBoard board(1);
  constexpr int kItems = 64;
  std::vector<std::atomic<int>> runs(kItems);
  std::mutex m;
  std::condition_variable cv;
  bool helper_ran = false;
  std::thread::id owner;
  bool waited_in_vain = false;
  run_with_helpers(board, 1, 1, [&](int) {
    owner = std::this_thread::get_id();
    HelpBoard::current()->share(kItems, [&](int i) {
      ++runs[static_cast<size_t>(i)];
      std::unique_lock<std::mutex> lock(m);
      if (std::this_thread::get_id() != owner) {
        helper_ran = true;
        cv.notify_all();
      } else if (i == 0) {
        // The owner holds item 0 until a helper has run another item: a
        // board whose helpers never joined would wait out the minute here.
        waited_in_vain = !cv.wait_for(lock, std::chrono::seconds(60), [&] { return helper_ran; });
      }
    });
  });
  CHECK_FALSE(waited_in_vain);
  CHECK(helper_ran);
  for (int i = 0; i < kItems; ++i) CHECK(runs[static_cast<size_t>(i)] == 1);
}

TEST_CASE("help board: an item's exception reaches the owner, and helpers still leave") {
  HelpBoard board(2);
  std::atomic<int> caught{0}, ran{0};
  run_with_helpers(board, 2, 2, [&](int h) {
    try {
      HelpBoard::current()->share(40, [&](int i) {
        ++ran;
        if (h == 1 && i == 17) throw std::runtime_error("block 17");
      });
    } catch (const std::runtime_error& e) {
      CHECK(std::string(e.what()) == "block 17");
      ++caught;
    }
  });
  CHECK(caught == 1);
  CHECK(ran == 80);  // the other items of the throwing loop still ran
}

TEST_CASE("help board: loops of many heads, any number of helpers, each item once") {
  for (int helpers = 0; helpers <= 3; ++helpers) {
    constexpr int kHeads = 5, kLoops = 4, kItems = 23;
    HelpBoard board(kHeads);
    std::vector<std::atomic<int>> runs(static_cast<size_t>(kHeads * kLoops * kItems));
    run_with_helpers(board, kHeads, helpers, [&](int h) {
      for (int loop = 0; loop < kLoops; ++loop)
        attn::detail::for_each_item(kItems, 1, 1.0, [&](int i) {  // shares through the current board
          ++runs[static_cast<size_t>((h * kLoops + loop) * kItems + i)];
        });
    });
    for (size_t i = 0; i < runs.size(); ++i) REQUIRE_MESSAGE(runs[i] == 1, "item " << i << " with " << helpers << " helpers");
  }
}
