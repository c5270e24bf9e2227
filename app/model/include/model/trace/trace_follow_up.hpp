// A step between a trace computed in the background and the screen. The
// trace model knows nothing of what the step makes (the session's texels);
// it only holds a landed trace back until the step for it has finished, so
// the frame that shows a trace already has what the step made for it, and
// the window never shows a new trace with the old trace's colours.
#pragma once

#include <memory>

#include "attn/compute/trace.hpp"
#include "model/colour/colour_scale.hpp"

namespace model {

class TraceFollowUp {
 public:
  virtual ~TraceFollowUp() = default;
  // A background trace has landed: start the step for it. Called on the
  // recompute's thread, so the step starts at once and the window wakes
  // only when it has finished. A newer call replaces the step for an older
  // trace.
  virtual void begin(std::shared_ptr<const attn::Trace> trace, std::shared_ptr<const RowRanges> ranges) = 0;
  // The step for `trace` has begun and ended: made, failed or cancelled (the
  // trace is then shown without what it would have made). UI thread.
  virtual bool finished(const attn::Trace& trace) const = 0;
  // The trace it was begun for will not be shown (UI thread).
  virtual void cancel() = 0;
  // Blocks until no step runs (headless pictures, tests).
  virtual void wait_idle() = 0;
};

}  // namespace model
