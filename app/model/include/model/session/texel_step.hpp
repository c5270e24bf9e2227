// The texels of the large grids on screen, made on a TaskRunner after a
// background trace is computed and before the trace is shown (the trace
// model waits for this step: model/trace/trace_follow_up.hpp). At 2048
// tokens a head's four 4 M-cell grids take about 60 ms to colour: made here,
// the frame that installs the trace only uploads them.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>

#include "model/colour/grid_texels.hpp"
#include "model/tasks/task_runner.hpp"
#include "model/trace/trace_follow_up.hpp"

namespace model {

class TexelStep final : public TraceFollowUp {
 public:
  TexelStep();
  // What the window shows (its colours and head); the next step makes the
  // texels of those grids. Teaching scenes, computed on the UI thread, never
  // come through here: their grids are small or made when drawn.
  void set_request(const TexelRequest& request) {
    std::lock_guard<std::mutex> lock(mutex_);
    request_ = request;
  }
  // Called from the runner's thread when texels are made.
  void set_wake(std::function<void()> wake) { runner_.set_wake(std::move(wake)); }

  void begin(std::shared_ptr<const attn::Trace> trace, std::shared_ptr<const RowRanges> ranges) override;
  bool finished(const attn::Trace& trace) const override;
  void cancel() override;
  void wait_idle() override { runner_.wait_idle(); }

  // The texels made for `trace` (the one now shown), taken from the runner
  // when it is new; null when none were made for it. Kept until release().
  const PreparedTexels* made_for(const attn::Trace& trace);
  void release() { made_.reset(); }
  // How long the last texels took to make (ms).
  double last_ms() const { return last_ms_; }

 private:
  struct Job {
    std::shared_ptr<const attn::Trace> trace;
    std::shared_ptr<const RowRanges> ranges;
    TexelRequest request;
  };
  struct Made {
    // Which trace: weak, so its matrices are freed with it, and its address
    // is never another trace's while this is held.
    std::weak_ptr<const attn::Trace> trace;
    std::shared_ptr<const PreparedTexels> texels;
    double ms = 0;
  };
  static Made make(const Job& job, TaskControl& task);

  // The request is set on the UI thread and read by begin() on the
  // recompute's; begin() and finished() are one step each under it.
  mutable std::mutex mutex_;
  TexelRequest request_;
  std::weak_ptr<const attn::Trace> begun_;  // the trace of the last begin()
  std::optional<Made> made_;
  double last_ms_ = 0;
  TaskRunner<Job, Made> runner_;  // last: its jobs end before the rest goes
};

}  // namespace model
