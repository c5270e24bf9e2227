// Which keys each query may see, for every mask kind: one rule the trace,
// the KV cache and the receptive-field count share.
#pragma once

#include "attn/scenario.hpp"

namespace attn {

// True when the scenario's mask (its kind and key padding) hides key j from
// query i. The scenario must be valid (validate()).
bool mask_blocks(const Scenario& s, int i, int j);

// How far information can travel through `layers` layers of this mask: the
// oldest position whose token can reach the last of `n` positions, directly
// or through the positions between (a sliding window of w reaches back
// layers·(w − 1)). Returns how many positions back it reaches, at most n − 1.
int receptive_field(const Scenario& s, int n, int layers);

// The same count for any sequence length, in closed form, for the panel
// that shows it live: a sliding window reaches layers·(window − 1) positions
// back (sinks aside, which every query sees directly); a strided mask with
// stride > 1 reaches everything from 2 layers on, stride − 1 with one layer
// (plus every stride-th position); -1 means without limit (causal, none).
// Custom masks have no closed form: -1 (use receptive_field).
long long window_reach(const Scenario& s, int layers);

}  // namespace attn
