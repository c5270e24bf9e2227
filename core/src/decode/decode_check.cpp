// Which scenes a KV cache can decode token by token, and why not the others.
// Decoding sees only the tokens that have arrived, so anything that lets
// token t depend on a later token (a mask that shows it, a softmax or a mask
// step over all tokens) would give a different answer from the full trace.
#include "decode/decode_check.hpp"

#include <stdexcept>
#include <string>

#include "attn/decode/decode.hpp"
#include "attn/compute/masks.hpp"

namespace attn::detail {

void refuse_undecodable_options(const Scenario& s, int tokens) {
  const std::string problem = validate(s);
  if (!problem.empty()) throw std::invalid_argument(problem);
  const int n = static_cast<int>(s.x.rows());
  if (s.is_cross())
    throw std::invalid_argument(
        "the KV cache decodes self-attention, but this scene attends to a context (cross-attention): its keys and "
        "values are all known before the first token, so there is nothing to cache token by token");
  if (s.mask == MaskKind::None)
    throw std::invalid_argument(
        "the KV cache needs a mask that hides later tokens (causal, sliding_window, strided, or a custom mask with "
        "nothing unblocked above the diagonal); with no mask, query 0 would see key 1, which has not been decoded yet");
  if (s.mask_mode == MaskMode::AfterSoftmax)
    throw std::invalid_argument(
        "mask_mode: the KV cache needs the mask before the softmax; after it, each weight would be normalised over "
        "keys that have not been decoded yet");
  if (s.softmax_axis == SoftmaxAxis::Queries)
    throw std::invalid_argument(
        "softmax_axis: the KV cache needs the softmax over keys; over queries, each weight would depend on queries "
        "that have not been decoded yet");
  if (s.score == ScoreFn::Additive)
    throw std::invalid_argument(
        "score: the KV cache here decodes dot-product scores (q_t · k_j for each cached key); additive scores are "
        "not supported");
  if (tokens < 1 || tokens > n)
    throw std::invalid_argument("steps: " + std::to_string(tokens) + " is out of range (the scene has " +
                                std::to_string(n) + " tokens, 1 to " + std::to_string(n) + ")");
  if (tokens > kMaxDecodeTokens)
    throw std::invalid_argument(
        "steps: " + std::to_string(tokens) + " tokens is more than the decoder's cap of " +
        std::to_string(kMaxDecodeTokens) +
        ": every step keeps its own copy of the cache to show and explain it, so memory grows with the square of "
        "the tokens; decode fewer tokens");
}

void refuse_later_keys(const Scenario& s, int first_row, int last_row) {
  // Causal, sliding windows and strides hide later keys by construction
  // (scenario.hpp); only a custom mask can show one.
  if (s.mask != MaskKind::Custom) return;
  const int n_k = static_cast<int>(s.x.rows());
  for (int i = first_row; i <= last_row; ++i)
    for (int j = i + 1; j < n_k; ++j)
      if (!mask_blocks(s, i, j))
        throw std::invalid_argument("mask: the KV cache needs a mask that hides later tokens, but custom mask cell [" +
                                    std::to_string(i) + "][" + std::to_string(j) + "] lets query " + std::to_string(i) +
                                    " see key " + std::to_string(j) + ", which has not been decoded yet at step " +
                                    std::to_string(i));
}

}  // namespace attn::detail

namespace attn {

void check_decodable(const Scenario& s, int tokens) {
  detail::refuse_undecodable_options(s, tokens);
  detail::refuse_later_keys(s, 0, tokens - 1);
}

}  // namespace attn
