#pragma once
// Direct logit attribution: how much each head and each MLP writes, through
// the final norm and the output head, straight into one next-token logit.
// The last layer's output at a position is a sum of sources (see
// score_sources.hpp); with the final norm held at that token's value the
// logit is linear in them, so the parts (the norm's bias one of them) add up
// to the logit exactly. What a head contributes through later heads is not
// its direct part: patching measures that.
#include <string>
#include <vector>

#include "attn/hf/checkpoint/checkpoint.hpp"
#include "attn/hf/forward/forward.hpp"

namespace attn::hf {

struct LogitAttribution {
  int position = 0, token = 0;
  double logit = 0;                  // the model's own logit for `token` after `position`
  std::vector<std::string> sources;  // "token embedding", "L0 H3", "L0 MLP", "final norm bias", ...
  std::vector<double> parts;         // one per source; Σ = logit
  std::vector<std::vector<double>> heads;  // [layer][head]: each head's part, the layers × heads map
  std::vector<double> mlps;                // [layer]: each MLP's part
};

// On a float64 pass that kept every layer's details (keep_details). Throws
// ModelError for a model without a next-token head or a post-norm one
// (BERT), a position or token out of range, or a pass that kept too little.
LogitAttribution direct_logit_attribution(const Checkpoint& ck, const ForwardResult<double>& pass, int position,
                                          int token);
// The same, running the pass on `ids` first.
LogitAttribution direct_logit_attribution(const Checkpoint& ck, const std::vector<int>& ids, int position, int token);

}  // namespace attn::hf
