// Words for what the animation is doing right now: a status line ("step 7 of
// 40 · head 0 · QKᵀ · row 2") and a caption with the actual arithmetic, e.g.
// "q₂ · k₃ = 0.3×0.1 + 0.5×−0.2 + … = 0.41". Pure, so it is tested without a window.
#pragma once

#include <string>

#include "attn/explain/explain.hpp"
#include "model/animation/animation.hpp"

namespace model {

struct StepCaption {
  std::string status;  // which step, which stage, which row/cell
  std::string detail;  // what happens in it, with numbers when known
};

// `active` is the explanation of the active cell (cell granularity), or null.
StepCaption describe_step(const attn::Trace& trace, const Timeline& timeline, const Frame& frame,
                          const attn::Explanation* active);

// Digits as Unicode subscripts: 12 -> "₁₂".
std::string subscript(int n);

// One line saying what a stage holds, for the caption under its grid. It
// follows the options (scaling, mask mode, softmax axis) of `scenario`, the
// one the trace was computed from, so it never contradicts the numbers.
std::string stage_caption(const attn::Trace& trace, const attn::Stage& stage, const attn::Scenario& scenario);

}  // namespace model
