// The derived model: the trace (and its animation timeline) computed from the
// scenario the user edits. update() recomputes only when the scenario's
// revision changes. A failed recompute of an edit keeps the last good trace of
// the same document (marked stale) with the error message, so an invalid edit
// never blanks the screen; a document that fails from the start has no trace
// at all, so another document's grids are never shown under its name.
#pragma once

#include <cstdint>
#include <string>

#include "attn/trace.hpp"
#include "viz/offending_inputs.hpp"
#include "viz/timeline.hpp"

namespace viz {

struct TimelineKey {
  Granularity granularity = Granularity::Stage;
  int head = -1;
  bool operator==(const TimelineKey& o) const { return granularity == o.granularity && head == o.head; }
};

class TraceModel {
 public:
  // Recomputes if `revision` differs from the one last seen; rebuilds the
  // timeline if the trace or `key` changed. Returns true when the trace changed.
  // `document` names the open document; a new one drops the old trace.
  bool update(const attn::Scenario& scenario, std::uint64_t document, std::uint64_t revision, TimelineKey key,
              const attn::Limits& limits = {});

  bool has_trace() const { return has_trace_; }
  const attn::Trace& trace() const { return trace_; }
  // The scenario the trace was computed from (explanations need it).
  const attn::Scenario& scenario() const { return scenario_; }
  const Timeline& timeline() const { return timeline_; }
  // Empty when the current scenario computed; else why it did not.
  const std::string& error() const { return error_; }
  // The trace shown is an older state of this document (the current one failed).
  bool stale() const { return has_trace_ && !error_.empty(); }
  // When a value overflowed: the input entries behind it, largest first.
  const std::vector<InputCell>& offending() const { return offending_; }
  Granularity granularity() const { return timeline_.granularity; }
  // Increments whenever trace() is replaced (textures, caches key on it).
  std::uint64_t generation() const { return generation_; }
  double last_compute_ms() const { return compute_ms_; }

 private:
  attn::Trace trace_;
  attn::Scenario scenario_;
  Timeline timeline_;
  TimelineKey key_;
  std::string error_;
  std::vector<InputCell> offending_;
  std::uint64_t document_ = 0, revision_ = 0, generation_ = 0;
  bool has_trace_ = false;
  bool timeline_built_ = false;
  double compute_ms_ = 0;
};

}  // namespace viz
