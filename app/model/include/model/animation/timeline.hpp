// The animation timeline: an ordered list of steps over the trace's stages,
// at a chosen granularity (whole stage, one row, or one cell at a time).
// Built once per trace/granularity; evaluating it is pure (see animation.hpp).
#pragma once

#include <vector>

#include "attn/compute/trace.hpp"

namespace model {

enum class Granularity { Stage, Row, Cell };

// Which stages take part: all heads, or one head plus the shared stages.
struct TimelineFilter {
  int head = -1;  // -1: every head
};

struct Step {
  int stage = 0;      // index into Trace::stages
  int row = -1;       // -1: the whole stage
  int col = -1;       // -1: the whole row (or stage)
  double start = 0;   // seconds from the timeline start
  double duration = 0;
};

struct Timeline {
  Granularity granularity = Granularity::Stage;
  std::vector<Step> steps;
  double total = 0;              // seconds
  std::vector<int> stage_order;  // stage indices in play order
  // Time span of each stage's steps, parallel to stage_order.
  struct Span {
    double start = 0, end = 0;
  };
  std::vector<Span> spans;
};

// Input stages (x, weights matrices, ...) are shown from the start; every
// computed stage gets steps. Durations are in seconds at speed 1.
Timeline build_timeline(const attn::Trace& trace, Granularity g, TimelineFilter filter = {});

// Index of the step active at time t (clamped to [0, total]); -1 for an empty timeline.
int step_at(const Timeline& tl, double t);

// Boundaries used by step forward/back: the start time of each step, plus total.
double next_boundary(const Timeline& tl, double t);
double previous_boundary(const Timeline& tl, double t);

}  // namespace model
