// Limits that follow the machine: a trace may use at most half of the memory
// the system reports available (and never more than the fixed cap), so one
// scene, or several documents, cannot push the machine into swapping.
#pragma once

#include "attn/scenario/scenario.hpp"

namespace attn::io {

// MemAvailable from /proc/meminfo in bytes, or 0 when it cannot be read.
long long available_memory_bytes();

// attn::Limits with max_trace_bytes = min(fixed cap, half of `available`)
// and the reason stated; `available` 0 keeps the fixed cap.
Limits limits_for_memory(long long available);
Limits machine_limits();  // limits_for_memory(available_memory_bytes())

}  // namespace attn::io
