#pragma once
// Activation patching between two prompts (Meng et al. 2022; Wang et al.
// 2022): run a clean prompt and a corrupted one of the same length, then
// run the corrupted one again with one activation taken from the clean run,
// and see how far the metric comes back. The metric is a logit difference,
// logit(answer) − logit(wrong) after one position (by default the last).
// Per head: the head's output (weights x V) patched; per layer and
// position: the residual stream entering the layer at that position. Each
// patched run resumes from the corrupted run's kept stream at the patched
// layer, so only the layers from there on are computed again.
#include <functional>
#include <vector>

#include "attn/hf/checkpoint/checkpoint.hpp"
#include "attn/hf/forward/forward.hpp"

namespace attn::hf {

struct PatchMetric {
  // Token ids: the metric is logit(answer) − logit(wrong). -1: the clean
  // run's top guess (answer), the corrupted run's (wrong).
  int answer = -1, wrong = -1;
  int position = -1;          // whose next token; -1: the last
};

struct PatchingResult {
  int answer = 0, wrong = 0;        // the tokens compared, once chosen
  double clean = 0, corrupted = 0;  // the metric on each prompt as it is
  // [layer][head] or [layer][position]: the metric with that activation
  // patched, and its recovery (patched − corrupted) / (clean − corrupted),
  // 1 when the patch brings the clean metric back (0 when clean = corrupted).
  std::vector<std::vector<double>> patched, recovered;
};

enum class PatchSite { HeadOutput, ResidualStream };

// Throws ModelError for prompts of different lengths, ids out of range, the
// same token as answer and wrong, a
// model without a next-token head, or a position out of range. `progress(done,
// total)` after each patched run; returning false cancels (throws Cancelled).
template <class S>
PatchingResult patch_activations(const Checkpoint& ck, const std::vector<int>& clean, const std::vector<int>& corrupted,
                                 const PatchMetric& metric, PatchSite site,
                                 const std::function<bool(int done, int total)>& progress = {}, int max_threads = 0);

}  // namespace attn::hf
