#pragma once
// Why a real model's head attends: one score S[query, key] of a head split
// over (query source, key source) pairs of the residual stream entering its
// layer (attn/why/source_split.hpp). The sources are the token embedding,
// the position embedding (GPT-2), each earlier head's output through its
// rows of W_O, each earlier layer's attention bias and MLP. The layer's norm
// is held at its value for each token (its 1/σ or 1/rms), which makes the
// query and the key linear in the stream: the norm's own bias and the
// projections' biases are sources of their own, and RoPE turns each part
// as it turns the whole. The parts add up to the score exactly (to
// rounding), in float64.
#include <vector>

#include "attn/hf/checkpoint/checkpoint.hpp"
#include "attn/hf/forward/forward.hpp"
#include "attn/why/source_split.hpp"

namespace attn::hf {

// Throws ModelError for a post-norm family (BERT: its norm comes after each
// sum, so its stream is no sum of sources), a layer, head or position out of
// range, or a key the query may not see.
SourceSplit split_score_by_source(const Checkpoint& ck, const std::vector<int>& ids, int layer, int head, int query,
                                  int key);
// The same on a float64 pass already run on the ids, which kept the details
// (ForwardOptions::keep_details) of every layer up to `layer`: no forward
// pass, only the two positions' sources (a few products a layer). Throws
// ModelError as above, and when the pass kept too little.
SourceSplit split_score_by_source(const Checkpoint& ck, const ForwardResult<double>& pass, int layer, int head,
                                  int query, int key);

}  // namespace attn::hf
