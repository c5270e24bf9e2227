// Streams a trace as attnviz-trace JSON one stage at a time. Building the
// whole document first (trace_to_json) costs several times the output size in
// memory, over 2 GB for a 1024-token, 8-head scenario; streaming keeps the peak
// near one stage. The text is byte-identical to trace_to_json(t).dump(indent).
#pragma once

#include <ostream>

#include "attn/compute/trace.hpp"

namespace attn::cli {

// Consumes the trace (stages are moved out as they are written).
void write_trace_json(std::ostream& out, Trace trace, int indent);

}  // namespace attn::cli
