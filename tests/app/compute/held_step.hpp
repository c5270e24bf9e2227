// A trace follow-up step that ends when the test says so (TraceFollowUp;
// begun on the recompute's thread, so its counts are atomic).
#pragma once

#include <atomic>
#include <memory>

#include "model/trace/trace_follow_up.hpp"

namespace test_steps {

struct HeldStep final : model::TraceFollowUp {
  std::atomic<int> begun{0}, cancelled{0};
  std::atomic<bool> done{false};
  std::atomic<const attn::Trace*> last{nullptr};
  void begin(std::shared_ptr<const attn::Trace> trace, std::shared_ptr<const model::RowRanges>) override {
    ++begun;
    done = false;
    last = trace.get();
  }
  bool finished(const attn::Trace& trace) const override { return done && last.load() == &trace; }
  void cancel() override { ++cancelled; }
  void wait_idle() override {}
};

}  // namespace test_steps
