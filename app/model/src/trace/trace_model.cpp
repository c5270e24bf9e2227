// Recompute-on-revision: incremental, in the background for big scenes,
// with last-good fallback. (The timeline itself falls back to coarser steps
// for large stages, so a 1024-token scene stays small.)
#include "model/trace/trace_model.hpp"

#include "model/trace/screen_trace.hpp"

#include <algorithm>
#include <chrono>
#include <exception>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "attn/execution/parallel.hpp"
#include "model/layout/layout.hpp"  // same_layout_inputs

namespace model {
namespace {

// glibc keeps freed heap pages in the process unless asked: a 2048-token
// scene would carry the last trace (and, on opening, the parsed file's many
// small allocations) into the next edit's peak.
void release_freed_memory() {
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}

}  // namespace

double estimated_work(const attn::Scenario& s) {
  const attn::Dims d = attn::dims_of(s);
  const double heads = d.n_heads;
  return heads * (static_cast<double>(d.n_q) * d.n_k * (d.d_k + d.d_v) +
                  static_cast<double>(d.n_q + d.n_k) * d.d_model * (2.0 * d.d_k + d.d_v));
}

TraceModel::TraceModel(double background_work)
    : background_work_(background_work),
      releaser_([this](const Release& r, TaskContext<std::shared_ptr<attn::Scenario>>& task) { return release(r, task); },
                TaskPolicy::Queue),
      compute_([this](const Job& job, TaskContext<Result>& task) { return compute(job, task); }, TaskPolicy::Replace) {
  // Every core: the jobs run at a lower priority than the window (every
  // job thread does, JobPool), so frames keep coming while they compute.
  max_threads_ = attn::usable_cores();
}

// Each runner's jobs look at the other (a recompute waits for the releaser,
// the releaser asks whether a recompute waits): both stop before either goes.
TraceModel::~TraceModel() {
  compute_.cancel();
  compute_.wait_idle();
  releaser_.wait_idle();
}

void TraceModel::set_on_ready(std::function<void()> wake) { compute_.set_wake(std::move(wake)); }

namespace {

// Milliseconds since the last call (the phases of a recompute).
class Laps {
 public:
  double lap() {
    const auto now = std::chrono::steady_clock::now();
    const double ms = std::chrono::duration<double, std::milli>(now - last_).count();
    last_ = now;
    return ms;
  }
  double total() const { return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_).count(); }

 private:
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now(), last_ = start_;
};

}  // namespace

void TraceModel::add_ranges(Result& r, const attn::Trace* base, const RowRanges* base_ranges) {
  Laps laps;
  r.ranges = std::make_shared<const RowRanges>(base && base_ranges ? trace_row_ranges(*r.trace, *base, *base_ranges)
                                                                   : trace_row_ranges(*r.trace));
  r.phases.ranges = laps.lap();
}

TraceModel::Result TraceModel::run(const Job& job, attn::Progress* progress, const std::function<void(Result)>& publish) {
  Result r;
  r.document = job.document;
  r.revision = job.revision;
  r.scenario = job.scenario;
  Laps laps;
  try {
    std::shared_ptr<const attn::Trace> base = job.base_scenario ? job.base : nullptr;
    std::shared_ptr<const RowRanges> base_ranges = job.base_ranges;
    if (!base && job.preview_head >= 0 && progress && publish) {
      // Nothing on screen yet: the head on screen first, shown at once, then
      // the rest completed from it (its matrices and ranges are reused).
      Result first = r;
      first.preview = true;
      first.trace = std::make_shared<const attn::Trace>(
          attn::compute_preview(*job.scenario, job.preview_head, job.limits, progress));
      first.phases.core = laps.lap();
      add_ranges(first, nullptr, nullptr);
      laps.lap();
      first.ms = laps.total();
      base = first.trace;
      base_ranges = first.ranges;
      publish(first);
      r.trace = std::make_shared<const attn::Trace>(attn::complete_trace(*base, *job.scenario, job.limits, progress));
    } else {
      r.trace = std::make_shared<const attn::Trace>(
          base ? attn::update_trace(*base, *job.base_scenario, *job.scenario, job.limits, progress)
               : attn::compute_trace(*job.scenario, job.limits, progress));
    }
    r.phases.core = laps.lap();
    add_ranges(r, base.get(), base_ranges.get());
    r.same_layout = base && base->complete && same_layout_inputs(*base, *r.trace);
    // After the ranges, which read every stage: the heads not on screen let
    // their n×n scores go until something reads them.
    if (job.shown_head >= 0) r.trace = std::make_shared<const attn::Trace>(kept_for_screen(*r.trace, job.shown_head));
  } catch (const attn::Cancelled&) {
    throw;
  } catch (const attn::ComputeError& e) {
    r.trace.reset();
    r.error = e.what();
    r.offending = offending_inputs(*job.scenario, e.stage, e.row, e.col);
  } catch (const std::exception& e) {
    r.trace.reset();
    r.error = e.what();
  }
  r.ms = laps.total();
  return r;
}

TraceModel::Result TraceModel::compute(const Job& job, TaskContext<Result>& task) {
  releaser_.wait_idle();  // what is dead is freed first: the peak should not include it
  attn::Progress progress;
  progress.max_threads = max_threads_;
  task.link_cancel(progress.cancel);
  const int heads = std::max(1, static_cast<int>(job.scenario->heads.size()));
  task.report_from([&progress, heads] { return TaskProgress{progress.heads_done.load(), heads, {}}; });
  // A preview is shown unless this job was cancelled (a newer edit or the
  // user): the window wakes for it as for a finished result.
  // A trace with a follow-up step lands without waking the window, and the
  // step starts once it has landed: the step wakes the window when it has
  // finished, and then finds the trace there (a frame drawn in between would
  // take a core from the step).
  const bool follows = follow_up_ != nullptr;
  auto publish = [&](Result preview) {
    std::shared_ptr<const attn::Trace> trace = preview.trace;
    std::shared_ptr<const RowRanges> ranges = preview.ranges;
    if (task.publish(std::move(preview), !(follows && trace)) && follows && trace)
      follow_up_->begin(std::move(trace), std::move(ranges));
  };
  try {
    Result r = run(job, &progress, publish);
    if (follows && r.trace) {
      task.land_quietly();
      task.after_landing([this, trace = r.trace, ranges = r.ranges] { follow_up_->begin(trace, ranges); });
    }
    return r;
  } catch (const attn::Cancelled&) {
    // Stopped by the user (not replaced by a newer edit, which reuses it):
    // what it made goes back from the recycled storage.
    if (!compute_.busy()) attn::release_recycled_storage();
    throw;
  }
}

std::shared_ptr<attn::Scenario> TraceModel::release(const Release& r, TaskControl& task) {
  // Not during the frame that shows the new trace: unmapping 500 MB (2048
  // tokens) while that frame uploads its textures slowed it from about 24
  // to 26-35 ms. A new recompute cuts the wait short (cancel_running).
  if (!compute_.busy()) task.wait_cancelled_for(std::chrono::milliseconds(60));
  const bool job_waits = compute_.busy();
  r.old.clear();
  // A waiting job (an edit of X, after the scores on screen were dropped)
  // writes over the large storage just freed instead of faulting in as much
  // again; with none, it goes back to the system.
  if (!job_waits) attn::release_recycled_storage();
  release_freed_memory();
  std::shared_ptr<const attn::Scenario> copy_of = std::move(r.spare_from);
  return copy_of ? std::make_shared<attn::Scenario>(*copy_of) : nullptr;
}

std::shared_ptr<const attn::Scenario> TraceModel::snapshot(const attn::Scenario& scenario) {
  if (!spare_) {
    while (std::optional<TaskOutcome<std::shared_ptr<attn::Scenario>>> o = releaser_.take())
      if (o->result && *o->result) spare_ = std::move(*o->result);
  }
  if (spare_ && spare_.use_count() == 1) {
    *spare_ = scenario;  // same shapes: copies into the matrices already there
    return std::move(spare_);
  }
  spare_.reset();
  return std::make_shared<attn::Scenario>(scenario);
}

void TraceModel::retire(std::vector<std::shared_ptr<const void>> old, std::shared_ptr<const attn::Scenario> spare_from) {
  if (!background_used_) return;  // teaching scenes: small, freed here
  // Not wanted: a spare exists, or a new document has other shapes.
  if (!spare_from) releaser_.discard();
  Release r;
  for (auto& p : old)
    if (p) r.old.push_back(std::move(p));
  r.spare_from = std::move(spare_from);
  releaser_.submit(std::move(r));
}

void TraceModel::drop_scores_before(const attn::Scenario& next) {
  // Without a background recompute yet, the full trace would be freed on this thread.
  if (!background_used_ || !trace_ || !scenario_ || !attn::recomputes_everything(*scenario_, next)) return;
  const attn::Stage* first = trace_->find(attn::StageKind::scores, 0);
  if (!first || first->value.on_demand() ||
      static_cast<std::size_t>(first->value.size()) * sizeof(double) < kScoresOnDemandFrom)
    return;  // none, dropped already, or small
  std::shared_ptr<const attn::Trace> full = std::move(trace_);
  trace_ = std::make_shared<const attn::Trace>(attn::with_scores_on_demand(*full, kScoresOnDemandFrom));
  Release r;
  r.old.push_back(std::move(full));
  releaser_.submit(std::move(r));
}

void TraceModel::submit(Job job) {
  background_used_ = true;
  drop_awaiting();  // an older revision's result: never shown now
  compute_.submit(std::move(job));
  releaser_.cancel_running();  // its pause before freeing, not the freeing
}

double TraceModel::progress() const {
  // Every head computed, the follow-up step still running.
  if (awaiting_ && !compute_.busy()) return 1.0;
  return compute_.progress().fraction();
}

void TraceModel::drop_job() {
  compute_.cancel();
  compute_.discard();
  drop_awaiting();
}

void TraceModel::drop_awaiting() {
  if (awaiting_ && follow_up_) follow_up_->cancel();
  awaiting_.reset();
}

void TraceModel::cancel() {
  drop_job();
  if (pending_) {
    pending_ = false;
    cancelled_ = "Stopped: the grids show the last result that finished, not your latest edit.";
    if (!trace_) cancelled_ = "Stopped before any grid was computed.";
    if (preview())
      cancelled_ = "Stopped: only head " + std::to_string(preview_head()) +
                   " was computed (the other heads, concat and the output were not).";
  }
}

void TraceModel::compute_again() {
  if (cancelled_.empty()) return;
  cancelled_.clear();
  again_ = true;
}

int TraceModel::preview_head() const {
  if (!preview()) return -1;
  for (const attn::Stage& s : trace_->stages)
    if (s.head >= 0) return s.head;
  return -1;
}

void TraceModel::wait_idle() {
  compute_.wait_idle();
  releaser_.wait_idle();
  if (follow_up_) follow_up_->wait_idle();  // begun by the recompute, before it returned
}

void TraceModel::apply(Result r) {
  compute_ms_ = r.ms;
  phases_ = r.phases;
  offending_ = std::move(r.offending);
  if (r.trace) {
    // The old snapshot is the next one's storage when nothing else holds it
    // (every snapshot is made non-const by snapshot(), so the cast is sound).
    if (scenario_ && scenario_.use_count() == 1) spare_ = std::const_pointer_cast<attn::Scenario>(std::move(scenario_));
    // A preview's scenario is still the running job's: the spare is asked
    // for with the whole trace.
    retire({std::move(trace_), std::move(ranges_), std::move(scenario_)}, spare_ || r.preview ? nullptr : r.scenario);
    trace_ = std::move(r.trace);
    ranges_ = std::move(r.ranges);
    scenario_ = std::move(r.scenario);
    error_.clear();
    cancelled_.clear();
    ++generation_;
    if (!r.same_layout) ++layout_generation_;
  } else {
    if (preview()) {
      // The rest of a document that never computed whole failed: like any
      // document that fails from the start, it shows no grids.
      retire({std::move(trace_), std::move(ranges_), std::move(scenario_)});
      ranges_ = std::make_shared<const RowRanges>();
      ++generation_;
      ++layout_generation_;
    }
    error_ = std::move(r.error);  // keep showing the last good trace of this document
    cancelled_.clear();
  }
}

void TraceModel::take_landed() {
  if (!pending_ || (hold_preview_ && preview())) return;  // nothing asked for, or a preview held on screen
  // The newest of what landed (a preview and its whole trace may both have).
  // Holding a preview, the preview is taken even when the whole trace has
  // landed after it too (that waits in the runner for the release), and it
  // is shown without waiting for its follow-up: the whole trace's step
  // replaces the preview's, so it might never finish.
  std::optional<Result> done;
  while (std::optional<TaskOutcome<Result>> o = compute_.take())
    if ((o->done() || o->partial()) && o->result->document == document_ && o->result->revision == revision_) {
      done = std::move(o->result);
      if (hold_preview_ && done->preview) break;
    }
  if (done && hold_preview_ && done->preview) {
    drop_awaiting();
    install(std::move(*done));
    return;
  }
  if (done && follow_up_ && done->trace) {
    // Its step begins once it has landed. A newer landing (the whole trace
    // after its preview) replaces the one waiting, as its step replaced the
    // older step.
    awaiting_ = std::move(done);
    done.reset();
  }
  if (awaiting_ && follow_up_->finished(*awaiting_->trace)) {
    done = std::move(awaiting_);
    awaiting_.reset();
  }
  if (done) install(std::move(*done));
}

void TraceModel::install(Result r) {
  if (!r.preview) pending_ = false;  // a preview: the whole trace follows
  apply(std::move(r));
}

bool TraceModel::update(const attn::Scenario& scenario, std::uint64_t document, std::uint64_t revision,
                        TimelineKey key, const attn::Limits& limits) {
  const std::uint64_t generation = generation_;
  if (document != document_) {
    document_ = document;
    // Never show one document's grids under another's name.
    retire({std::move(trace_), std::move(ranges_), std::move(scenario_), std::move(spare_)});
    drop_awaiting();
    ++layout_generation_;
    ranges_ = std::make_shared<const RowRanges>();
    revision_ = 0;
    cancelled_.clear();
  }
  take_landed();
  if (revision != revision_ || again_) {
    revision_ = revision;
    again_ = false;
    cancelled_.clear();
    // Only a whole trace is a base to update from (a preview lacks heads).
    const bool whole = trace_ && trace_->complete;
    Job job{snapshot(scenario), document, revision, limits, whole ? trace_ : nullptr, whole ? scenario_ : nullptr,
            ranges_};
    if (!attn::validate(scenario, limits).empty() || estimated_work(scenario) < background_work_) {
      if (pending_) drop_job();  // an older background recompute is no longer wanted
      pending_ = false;
      try {
        apply(run(job, nullptr));
      } catch (const attn::Cancelled&) {
      }
    } else {
      drop_scores_before(scenario);
      job.base = whole ? trace_ : nullptr;  // the same trace, its scores perhaps made on demand now
      job.shown_head = key.head < attn::dims_of(scenario).n_heads ? key.head : -1;
      if (!job.base) {
        // Nothing whole on screen: draw the head on screen (all heads: the first) first.
        const int heads = attn::dims_of(scenario).n_heads;
        job.preview_head = std::clamp(key.head, 0, std::max(0, heads - 1));
      }
      pending_ = true;
      // The last error was about the revision before this one: while this
      // one computes, the grids are marked stale and the panel says
      // "computing", not that the new edit cannot be computed.
      error_.clear();
      offending_.clear();
      submit(std::move(job));
    }
  }
  const bool changed = generation_ != generation;
  if (trace_ && (changed || !(key == key_) || !timeline_built_)) {
    key_ = key;
    timeline_ = build_timeline(*trace_, key.granularity, TimelineFilter{key.head});
    timeline_built_ = true;
  }
  return changed;
}

}  // namespace model#include "attn/execution/parallel.hpp"

