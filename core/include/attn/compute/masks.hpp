// Which keys each query may see, for every mask kind: one rule the trace,
// the KV cache and the receptive-field count share.
#pragma once

#include "attn/scenario/scenario.hpp"

namespace attn {

// The one causal / sliding-window rule, shared by the trace's masks and the
// real-model forward (attn::hf): query i of n_k keys sees the keys
// [first, last] — up to itself when causal, and only its last `window` keys
// (itself included) when window > 0. Sinks and padding are added on top by
// mask_blocks; a checkpoint's forward has neither.
struct KeySpan {
  int first = 0;
  int last = 0;
  bool contains(int j) const { return j >= first && j <= last; }
};
KeySpan visible_keys(int i, int n_k, bool causal, int window);

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
