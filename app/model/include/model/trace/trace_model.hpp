// The derived model: the trace (and its animation timeline) computed from the
// scenario the user edits. update() recomputes only when the scenario's
// revision changes, incrementally from the last trace (attn::update_trace).
// Teaching-sized scenes compute at once; big ones as a TaskRunner job, while
// the last good trace stays on screen marked stale, and a newer edit cancels
// an older recompute. A trace is only ever replaced whole, by the trace of
// the newest revision, so the screen never mixes two states.
// A failed recompute of an edit keeps the last good trace of the same
// document (marked stale) with the error message, so an invalid edit never
// blanks the screen; a document that fails from the start has no trace at
// all, so another document's grids are never shown under its name.
// With nothing on screen yet (a big document just opened), the background
// recompute draws progressively: first a preview of the inputs and the head
// on screen (attn::compute_preview), then the whole trace completed from it.
// The preview is of the newest revision too, so nothing mixes two states.
// A background trace may wait for a follow-up step (the session's texels,
// TraceFollowUp) before it is shown.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "attn/compute/trace.hpp"
#include "model/colour/colour_scale.hpp"
#include "model/trace/offending_inputs.hpp"
#include "model/animation/timeline.hpp"
#include "model/tasks/task_runner.hpp"
#include "model/trace/trace_follow_up.hpp"

namespace model {

struct TimelineKey {
  Granularity granularity = Granularity::Stage;
  int head = -1;
  bool operator==(const TimelineKey& o) const { return granularity == o.granularity && head == o.head; }
};

// Multiply-adds of a full trace: what decides between computing now and in the background.
double estimated_work(const attn::Scenario& s);

// Where a recompute's time went (ms): the core trace, the colour ranges.
struct ComputePhases {
  double core = 0, ranges = 0;
};

class TraceModel {
 public:
  // About 10 ms of arithmetic: below it an edit is computed before the next
  // frame (a teaching scene shows its result at once), above it in the background.
  static constexpr double kBackgroundWork = 3e7;
  explicit TraceModel(double background_work = kBackgroundWork);
  ~TraceModel();
  TraceModel(const TraceModel&) = delete;
  TraceModel& operator=(const TraceModel&) = delete;

  // Called from the worker thread when a background result is ready (the
  // window wakes up to show it).
  void set_on_ready(std::function<void()> wake);
  // A step each background trace waits for before it is shown (null: none),
  // begun on the recompute's thread. Set before the first update(); it must
  // outlive this model.
  void set_follow_up(TraceFollowUp* step) { follow_up_ = step; }

  // Recomputes if `revision` differs from the one last seen (or starts the
  // recompute in the background); installs a finished background result;
  // rebuilds the timeline if the trace or `key` changed. Returns true when
  // the trace changed. `document` names the open document; a new one drops
  // the old trace.
  bool update(const attn::Scenario& scenario, std::uint64_t document, std::uint64_t revision, TimelineKey key,
              const attn::Limits& limits = {});

  bool has_trace() const { return trace_ != nullptr; }
  const attn::Trace& trace() const { return trace_ ? *trace_ : empty_; }
  // The scenario the trace was computed from (explanations need it).
  const attn::Scenario& scenario() const { return scenario_ ? *scenario_ : empty_scenario_; }
  const Timeline& timeline() const { return timeline_; }
  // Each stage's row ranges for colouring, computed with the trace.
  const RowRanges& row_ranges() const { return *ranges_; }
  // Empty when the current scenario computed; else why it did not.
  const std::string& error() const { return error_; }
  // The newest revision is being computed in the background.
  bool computing() const { return pending_; }
  // Edits of the scene on screen are computed in the background (it is
  // big), or one was and was stopped: the window keeps room for the progress
  // line, so the grids do not move each time a recompute starts and ends.
  bool computes_in_background() const {
    return pending_ || !cancelled_.empty() || (scenario_ && estimated_work(*scenario_) >= background_work_);
  }
  // 0..1: heads finished of the background recompute.
  double progress() const;
  // Stops the background recompute; the last good trace stays, and
  // cancelled() says what the grids show instead.
  void cancel();
  // Not empty after cancel(), until a recompute starts or finishes: what the
  // grids show instead of the scenario's trace. A stop the user asked for is
  // not an error (error() stays empty: nothing in the scenario is wrong).
  const std::string& cancelled() const { return cancelled_; }
  // After cancel(): the next update() computes the scenario again.
  void compute_again();
  // Blocks until the worker and the follow-up step have nothing left to do
  // (headless screenshots, tests); the next update() installs the result.
  void wait_idle();
  // The trace shown is an older state of this document (the current one
  // failed, or is still being computed), or only its preview.
  bool stale() const { return has_trace() && (!error_.empty() || pending_ || !cancelled_.empty()); }
  // The trace shown is a preview: the inputs and one head (preview_head()),
  // while the other heads, concat and the output are computed.
  bool preview() const { return trace_ && !trace_->complete; }
  int preview_head() const;
  // While held, a preview on screen stays there: the whole trace, finished
  // or not, waits for the release (a headless picture of what a big
  // document shows first, --screenshot-at first-grids).
  void hold_preview(bool hold) { hold_preview_ = hold; }
  // When a value overflowed: the input entries behind it, largest first.
  const std::vector<InputCell>& offending() const { return offending_; }
  Granularity granularity() const { return timeline_.granularity; }
  // Increments whenever trace() is replaced (textures, caches key on it).
  std::uint64_t generation() const { return generation_; }
  // Increments when the new trace lays out differently (same_layout_inputs):
  // an edit of a value keeps the layout, so showing it costs no relayout.
  std::uint64_t layout_generation() const { return layout_generation_; }
  double last_compute_ms() const { return compute_ms_; }
  const ComputePhases& last_compute_phases() const { return phases_; }

 private:
  // Scenarios are shared, not copied: at 2048 tokens each copy is 32 MB, and
  // the job, its result and the trace shown would otherwise hold one each.
  struct Job {
    std::shared_ptr<const attn::Scenario> scenario;
    std::uint64_t document = 0, revision = 0;
    attn::Limits limits;
    std::shared_ptr<const attn::Trace> base;  // the trace of base_scenario, to update from
    std::shared_ptr<const attn::Scenario> base_scenario;
    std::shared_ptr<const RowRanges> base_ranges;
    int preview_head = -1;  // >= 0: publish a preview of this head first (no base)
    int shown_head = -1;    // >= 0: one head on screen; a long trace keeps only its scores (screen_trace.hpp)
  };
  struct Result {
    std::uint64_t document = 0, revision = 0;
    std::shared_ptr<const attn::Trace> trace;  // null when it failed
    std::shared_ptr<const RowRanges> ranges;
    std::shared_ptr<const attn::Scenario> scenario;
    bool same_layout = false;  // as the trace it was updated from
    bool preview = false;      // a preview: the job goes on to the whole trace
    std::string error;
    std::vector<InputCell> offending;
    double ms = 0;
    ComputePhases phases;
  };

  // Computes the job; a preview, when the job asks for one, goes to
  // `publish` before the whole trace is computed from it.
  static Result run(const Job& job, attn::Progress* progress, const std::function<void(Result)>& publish = {});
  // The colour ranges of a result's trace, reusing what `base` already had.
  static void add_ranges(Result& r, const attn::Trace* base, const RowRanges* base_ranges);
  // The background recompute: one job on compute_.
  Result compute(const Job& job, TaskContext<Result>& task);
  // What retire() hands to releaser_.
  // (mutable: freeing them is the job's whole point, and must come before
  // the memory is handed back to the system.)
  struct Release {
    mutable std::vector<std::shared_ptr<const void>> old;
    mutable std::shared_ptr<const attn::Scenario> spare_from;  // to copy into a spare snapshot
  };
  std::shared_ptr<attn::Scenario> release(const Release& r, TaskControl& task);
  void submit(Job job);
  // Forgets the waiting job and stops the running one; its result is never shown.
  void drop_job();
  void apply(Result r);
  // Takes what the background recompute landed for the newest revision, and
  // installs it, or hands it to the follow-up step and installs it once that
  // has finished.
  void take_landed();
  void install(Result r);
  // The result waiting for the follow-up step will not be shown.
  void drop_awaiting();
  // Hands what the UI thread no longer shows to the releaser, which frees it
  // and returns the memory to the system: at 2048 tokens freeing a trace
  // takes tens of milliseconds, too long for the frame that installs the next.
  // With `spare_from`, the releaser then also copies that scenario, so the
  // next edit has a spare snapshot with its pages and shapes (the first edit
  // after opening a 2048-token scene would otherwise copy 35 MB afresh).
  void retire(std::vector<std::shared_ptr<const void>> old, std::shared_ptr<const attn::Scenario> spare_from = nullptr);
  // Before a background recompute that keeps nothing of the trace on screen
  // (attn::recomputes_everything): shows the same trace with its large
  // scores made on demand instead (attn::with_scores_on_demand), and frees
  // the full one on the worker, so the old and new n×n matrices never live
  // at once (at 2048 tokens and 12 heads, 400 MB). Nothing on screen
  // changes: the generation stays, and any value read is the same.
  void drop_scores_before(const attn::Scenario& next);
  // A copy of the scenario for a job. At 2048 tokens a fresh 35 MB copy is
  // mostly page faults on the window's thread; the spare already has the
  // pages and the shapes. It is the snapshot of the trace before last when
  // nothing else holds it, else the copy the releaser made in retire().
  std::shared_ptr<const attn::Scenario> snapshot(const attn::Scenario& scenario);

  // UI-thread state.
  std::shared_ptr<const attn::Trace> trace_;
  std::shared_ptr<const RowRanges> ranges_ = std::make_shared<const RowRanges>();
  attn::Trace empty_;
  attn::Scenario empty_scenario_;
  std::shared_ptr<const attn::Scenario> scenario_;
  std::shared_ptr<attn::Scenario> spare_;
  TraceFollowUp* follow_up_ = nullptr;
  std::optional<Result> awaiting_;  // landed, waiting for the follow-up step
  Timeline timeline_;
  TimelineKey key_;
  std::string error_;
  std::string cancelled_;
  bool again_ = false;  // compute_again(): recompute the revision already seen
  std::vector<InputCell> offending_;
  std::uint64_t document_ = 0, revision_ = 0, generation_ = 0, layout_generation_ = 0;
  bool pending_ = false;
  bool timeline_built_ = false;
  double compute_ms_ = 0;
  ComputePhases phases_;
  double background_work_;
  bool hold_preview_ = false;

  bool background_used_ = false;  // a background recompute was started: big scenes free memory on the releaser
  int max_threads_ = 1;

  // Both run below the window's priority. The releaser frees what the
  // screen no longer shows; a recompute starts only once it is idle, so its
  // peak never includes what is dead. Newest wins on compute_: an edit
  // cancels the recompute of the edit before.
  TaskRunner<Release, std::shared_ptr<attn::Scenario>> releaser_;
  TaskRunner<Job, Result> compute_;  // last: its jobs use the rest
};

}  // namespace model
