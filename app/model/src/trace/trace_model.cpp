// Recompute-on-revision: incremental, in the background for big scenes,
// with last-good fallback. (The timeline itself falls back to coarser steps
// for large stages, so a 1024-token scene stays small.)
#include "model/trace/trace_model.hpp"

#include <algorithm>
#include <chrono>
#include <exception>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#if defined(__linux__)
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

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

// The worker and the threads it starts (which inherit this) yield to the
// window: with every core computing, a frame still gets its core when it
// wants one, so frames stay smooth while an edit computes on both cores.
void lower_this_threads_priority() {
#if defined(__linux__)
  setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), 10);
#endif
}

}  // namespace

double estimated_work(const attn::Scenario& s) {
  const attn::Dims d = attn::dims_of(s);
  const double heads = d.n_heads;
  return heads * (static_cast<double>(d.n_q) * d.n_k * (d.d_k + d.d_v) +
                  static_cast<double>(d.n_q + d.n_k) * d.d_model * (2.0 * d.d_k + d.d_v));
}

TraceModel::TraceModel(double background_work) : background_work_(background_work) {
  // Every core: the worker runs at a lower priority than the window
  // (lower_this_threads_priority), so frames keep coming while it computes.
  const int cores = static_cast<int>(std::thread::hardware_concurrency());
  progress_.max_threads = std::max(1, cores);
}

TraceModel::~TraceModel() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    quit_ = true;
    progress_.cancel = true;
  }
  wake_worker_.notify_all();
  if (worker_.joinable()) worker_.join();
}

void TraceModel::set_on_ready(std::function<void()> wake) {
  std::lock_guard<std::mutex> lock(mutex_);
  on_ready_ = std::move(wake);
}

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

void TraceModel::add_colours(Result& r, const Job& job, const attn::Trace* base, const RowRanges* base_ranges,
                             attn::Progress* progress) {
  Laps laps;
  r.ranges = std::make_shared<const RowRanges>(base && base_ranges ? trace_row_ranges(*r.trace, *base, *base_ranges)
                                                                   : trace_row_ranges(*r.trace));
  r.phases.ranges = laps.lap();
  // Only in the background (progress set): made on the UI thread, texels
  // would cost the same here as when drawn.
  if (job.texels && progress)
    r.texels = std::make_shared<const PreparedTexels>(prepare_texels(*r.trace, *r.ranges, *job.texels, &progress->cancel));
  r.phases.texels = laps.lap();
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
      add_colours(first, job, nullptr, nullptr, progress);
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
    add_colours(r, job, base.get(), base_ranges.get(), progress);
    r.same_layout = base && base->complete && same_layout_inputs(*base, *r.trace);
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

void TraceModel::worker_loop() {
  lower_this_threads_priority();
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    wake_worker_.wait(lock, [&] { return quit_ || job_.has_value() || trim_; });
    if (quit_) return;
    if (trim_) {  // before the next job: its peak should not include what is dead
      // Not during the frame that shows the new trace: unmapping 500 MB
      // (2048 tokens) while that frame uploads its textures slowed it from
      // about 24 to 26-35 ms. A new job cuts the wait short.
      wake_worker_.wait_for(lock, std::chrono::milliseconds(60), [&] { return quit_ || job_.has_value(); });
      std::vector<std::shared_ptr<const void>> old;
      old.swap(retired_);
      trim_ = false;
      std::shared_ptr<const attn::Scenario> copy_of = std::move(spare_from_);
      const bool job_waits = job_.has_value();
      releasing_ = true;
      lock.unlock();
      old.clear();
      // A waiting job (an edit of X, after the scores on screen were
      // dropped) writes over the large storage just freed instead of
      // faulting in as much again; with none, it goes back to the system.
      if (!job_waits) attn::release_recycled_storage();
      release_freed_memory();
      std::shared_ptr<attn::Scenario> copy = copy_of ? std::make_shared<attn::Scenario>(*copy_of) : nullptr;
      copy_of.reset();
      lock.lock();
      if (copy) made_spare_ = std::move(copy);
      releasing_ = false;
      idle_.notify_all();
      continue;
    }
    const Job job = std::move(*job_);
    job_.reset();
    running_ = true;
    progress_.cancel = false;  // a cancel meant for the previous job
    progress_.heads_done = 0;
    job_heads_ = std::max(1, static_cast<int>(job.scenario->heads.size()));
    lock.unlock();
    std::optional<Result> r;
    // A preview is shown unless a newer job already waits (its own preview
    // comes soon) or this one was cancelled: the window wakes for it as for
    // a finished result.
    auto publish = [this](Result preview) {
      std::unique_lock<std::mutex> lock(mutex_);
      if (job_ || progress_.cancel) return;
      result_ = std::move(preview);
      const std::function<void()> wake = on_ready_;
      lock.unlock();
      if (wake) wake();
    };
    try {
      r = run(job, &progress_, publish);
    } catch (const attn::Cancelled&) {
      // superseded by a newer edit, or cancelled by the user: nothing to show
    }
    lock.lock();
    running_ = false;
    if (r) result_ = std::move(*r);
    // A cancelled recompute leaves what it made to the recycled storage.
    if (!r && !job_) attn::release_recycled_storage();
    const std::function<void()> wake = on_ready_;
    idle_.notify_all();
    if (wake && !job_) {
      lock.unlock();
      wake();
      lock.lock();
    }
  }
}

std::shared_ptr<const attn::Scenario> TraceModel::snapshot(const attn::Scenario& scenario) {
  if (!spare_) {
    std::lock_guard<std::mutex> lock(mutex_);
    spare_ = std::move(made_spare_);
  }
  if (spare_ && spare_.use_count() == 1) {
    *spare_ = scenario;  // same shapes: copies into the matrices already there
    return std::move(spare_);
  }
  spare_.reset();
  return std::make_shared<attn::Scenario>(scenario);
}

void TraceModel::retire(std::vector<std::shared_ptr<const void>> old, std::shared_ptr<const attn::Scenario> spare_from) {
  if (!worker_.joinable()) return;  // teaching scenes: small, freed here
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto& p : old)
      if (p) retired_.push_back(std::move(p));
    spare_from_ = std::move(spare_from);
    if (!spare_from_) made_spare_.reset();  // not wanted: a spare exists, or a new document has other shapes
    trim_ = true;
  }
  wake_worker_.notify_all();
}

void TraceModel::drop_scores_before(const attn::Scenario& next) {
  // Without a worker yet, the full trace would be freed on this thread.
  if (!worker_.joinable() || !trace_ || !scenario_ || !attn::recomputes_everything(*scenario_, next)) return;
  const attn::Stage* first = trace_->find(attn::StageKind::scores, 0);
  if (!first || first->value.on_demand() ||
      static_cast<std::size_t>(first->value.size()) * sizeof(double) < kScoresOnDemandFrom)
    return;  // none, dropped already, or small
  std::shared_ptr<const attn::Trace> full = std::move(trace_);
  trace_ = std::make_shared<const attn::Trace>(attn::with_scores_on_demand(*full, kScoresOnDemandFrom));
  {
    std::lock_guard<std::mutex> lock(mutex_);
    retired_.push_back(std::move(full));
    trim_ = true;
  }
  wake_worker_.notify_all();
}

void TraceModel::submit(Job job) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (running_) progress_.cancel = true;  // the running recompute is for an older revision
    job_ = std::move(job);
    result_.reset();
    if (!worker_.joinable()) worker_ = std::thread([this] { worker_loop(); });
  }
  wake_worker_.notify_all();
}

double TraceModel::progress() const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!running_) return 0;
  return std::min(1.0, static_cast<double>(progress_.heads_done.load()) / job_heads_);
}

void TraceModel::drop_job() {
  std::lock_guard<std::mutex> lock(mutex_);
  job_.reset();
  if (running_) progress_.cancel = true;
  result_.reset();
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
  std::unique_lock<std::mutex> lock(mutex_);
  idle_.wait(lock, [&] { return !running_ && !job_ && !trim_ && !releasing_; });
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
    texels_ = std::move(r.texels);
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
      texels_.reset();
      ++generation_;
      ++layout_generation_;
    }
    error_ = std::move(r.error);  // keep showing the last good trace of this document
    cancelled_.clear();
  }
}

bool TraceModel::update(const attn::Scenario& scenario, std::uint64_t document, std::uint64_t revision,
                        TimelineKey key, const attn::Limits& limits) {
  const std::uint64_t generation = generation_;
  if (document != document_) {
    document_ = document;
    // Never show one document's grids under another's name.
    retire({std::move(trace_), std::move(ranges_), std::move(scenario_), std::move(spare_)});
    texels_.reset();
    ++layout_generation_;
    ranges_ = std::make_shared<const RowRanges>();
    revision_ = 0;
    cancelled_.clear();
  }
  if (pending_ && !(hold_preview_ && preview())) {  // a background result for the newest revision?
    std::optional<Result> done;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (result_ && result_->document == document_ && result_->revision == revision_) done = std::move(result_);
      result_.reset();
    }
    if (done) {
      if (!done->preview) pending_ = false;  // a preview: the whole trace follows
      apply(std::move(*done));
    }
  }
  if (revision != revision_ || again_) {
    revision_ = revision;
    again_ = false;
    cancelled_.clear();
    // Only a whole trace is a base to update from (a preview lacks heads).
    const bool whole = trace_ && trace_->complete;
    Job job{snapshot(scenario), document, revision, limits, whole ? trace_ : nullptr, whole ? scenario_ : nullptr,
            ranges_, texel_request_};
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
      if (!job.base) {
        // Nothing whole on screen: draw the head on screen (all heads: the first) first.
        const int heads = attn::dims_of(scenario).n_heads;
        job.preview_head = std::clamp(texel_request_ ? texel_request_->head : 0, 0, std::max(0, heads - 1));
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

}  // namespace model
