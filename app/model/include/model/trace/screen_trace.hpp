// What a long trace keeps while it is on screen. A head's scores are its only
// n×n matrix (the other stages derive from them), 8 MB at 1,024 tokens and
// 33 MB at 2,048; a 12-head layer of a real model holds 12 of them, though
// the pipeline and the compare view show one head at a time. The heads not
// shown keep their scores on demand (attn::with_scores_on_demand): made
// again, bit for bit, when something first reads them.
#pragma once

#include <cstddef>

#include "attn/compute/trace.hpp"

namespace model {

// Scores of this many bytes a head or more are dropped: from about 725
// tokens (GPT-2's layer at 1,001 tokens, 8.0 MB a head, is one of them).
constexpr std::size_t kScoresOnDemandFrom = std::size_t{4} << 20;

// `trace` keeping only `shown_head`'s large scores; every head's when
// shown_head < 0 (all heads side by side).
inline attn::Trace kept_for_screen(const attn::Trace& trace, int shown_head) {
  if (shown_head < 0) return trace;
  return attn::with_scores_on_demand(trace, kScoresOnDemandFrom, shown_head);
}

}  // namespace model
