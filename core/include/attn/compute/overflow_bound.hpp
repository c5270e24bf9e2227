// Whether a scenario can overflow, decided without computing it. A lesson
// check must refuse a scene whose trace overflows (the app could not show
// it), but computing every step's trace to find out froze the window for
// 20 s on a 500-step lesson. A bound settles it for any ordinary scene; only
// a scene the bound cannot clear is computed, to name the cell that
// overflows exactly as compute_trace does.
#pragma once

#include "attn/scenario/scenario.hpp"

namespace attn {

// True when a bound on every stage's largest value proves that computing
// `s` (valid) overflows nowhere: compute_trace(s) then throws no
// ComputeError. The bound uses only the inputs' largest entries and the
// shapes (a sum of k products is at most k times the largest factors), so
// it costs one pass over the inputs. False means "not proved", not "will
// overflow": values within some powers of ten of the largest double.
bool proved_finite(const Scenario& s);

}  // namespace attn
