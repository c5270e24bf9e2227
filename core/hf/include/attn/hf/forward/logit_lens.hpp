#pragma once
// The logit lens (nostalgebraist, 2020): what the model would predict if it
// stopped after each layer. The residual stream at every layer and position
// goes through the final norm and the output head, as the last layer's does,
// and its top predictions are kept: a layers × tokens grid of guesses that
// shows where in the depth the answer appears.
#include <functional>
#include <string>
#include <vector>

#include "attn/hf/forward/forward.hpp"

namespace attn::hf {

struct LogitLens {
  // Rows, in depth order: 0 the embeddings, l the stream after layer l − 1;
  // the last (n_layers) is the final hidden state, the model's own logits.
  std::vector<std::string> row_names;  // "embeddings", "after layer 0", ...
  std::vector<std::vector<std::vector<Prediction>>> top;  // [row][position]: the top_k, most probable first
};

// `r` must hold each layer's input (ForwardOptions::keep_inputs or
// keep_details) and the final state. `progress(done, total)` is called as
// the output head's blocks are done; returning false cancels (throws
// Cancelled). Throws ModelError for a family without a next-token head
// (BERT), a pass that kept no inputs, or logits that are not finite.
template <class S>
LogitLens logit_lens(const Checkpoint& ck, const ForwardResult<S>& r, int top_k,
                     const std::function<bool(int done, int total)>& progress = {});

}  // namespace attn::hf
