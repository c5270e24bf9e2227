// Recompute-on-revision with last-good fallback. (The timeline itself falls
// back to coarser steps for large stages, so a 1024-token scene stays small.)
#include "viz/trace_model.hpp"

#include <chrono>
#include <exception>

namespace viz {

bool TraceModel::update(const attn::Scenario& scenario, std::uint64_t document, std::uint64_t revision,
                        TimelineKey key, const attn::Limits& limits) {
  bool changed = false;
  if (document != document_) {
    document_ = document;
    has_trace_ = false;  // never show one document's grids under another's name
    revision_ = 0;
  }
  if (revision != revision_) {
    revision_ = revision;
    offending_.clear();
    const auto start = std::chrono::steady_clock::now();
    try {
      attn::Trace fresh = attn::compute_trace(scenario, limits);
      trace_ = std::move(fresh);
      scenario_ = scenario;
      has_trace_ = true;
      error_.clear();
      ++generation_;
      changed = true;
    } catch (const attn::ComputeError& e) {
      error_ = e.what();  // keep showing the last good trace of this document
      offending_ = offending_inputs(scenario, e.stage, e.row, e.col);
    } catch (const std::exception& e) {
      error_ = e.what();
    }
    compute_ms_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  }
  if (has_trace_ && (changed || !(key == key_) || !timeline_built_)) {
    key_ = key;
    timeline_ = build_timeline(trace_, key.granularity, TimelineFilter{key.head});
    timeline_built_ = true;
  }
  return changed;
}

}  // namespace viz
