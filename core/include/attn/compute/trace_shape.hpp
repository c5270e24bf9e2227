// What a scenario's trace will hold, known from its dimensions and options
// alone: each stage's id, head and shape, in the order compute_trace makes
// them. Checking a lesson asks only which stages, heads, rows and columns
// exist; answering that from the shapes takes microseconds where a trace of
// a 1024-token scene took tens of milliseconds and a hundred megabytes.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "attn/scenario/scenario.hpp"
#include "attn/compute/stage_kind.hpp"

namespace attn {

struct StageShape {
  StageKind id = StageKind::x;
  int head = -1;  // -1 when not per head, as in Stage
  int rows = 0, cols = 0;
};

struct TraceShape {
  Dims dims;
  std::vector<StageShape> stages;  // in computation order, as Trace::stages

  // As Trace::find: the stage `id` of head `head` (-1: not per head).
  const StageShape* find(StageKind id, int head = -1) const;
  // As Trace::find_named: a stage a lesson file names ("weights").
  const StageShape* find_named(std::string_view name, int head = -1) const;
};

// The shape of compute_trace(s) for a scenario validate() accepts.
TraceShape trace_shape(const Scenario& s);

}  // namespace attn
