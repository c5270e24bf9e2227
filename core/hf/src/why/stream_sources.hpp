#pragma once
// The residual stream of a real model taken apart (internal to attn_hf's
// "why" room): at one or two positions, the sources whose sum it is, and a
// norm held at a token's own value so that it is linear in them. Shared by
// the score split (score_sources.cpp) and the direct logit attribution
// (logit_attribution.cpp).
#include <string>
#include <vector>

#include "attn/hf/checkpoint/checkpoint.hpp"
#include "attn/hf/forward/forward.hpp"
#include "forward/tensor_load.hpp"

namespace attn::hf::detail {

using Mat64 = MatX<double>;
using Row64 = RowX<double>;

// Where a source comes from: an earlier layer's head (head >= 0), its MLP
// (mlp), or neither (the embeddings, a bias: layer -1 or head -1).
struct SourceOrigin {
  int layer = -1, head = -1;
  bool mlp = false;
};

struct Sources {
  std::vector<std::string> names;
  std::vector<SourceOrigin> origins;
  std::vector<Mat64> parts;  // each (2, d): the first position's row, then the second's
};

// The stream entering `layer` (n_layers: the last layer's output, before the
// final norm) at positions `a` and `b`, taken apart: Σ parts = those rows.
// `r` must hold the details of every layer before `layer`.
Sources stream_sources(const Checkpoint& ck, const ForwardResult<double>& r, int layer, int a, int b);

// Throws ModelError "position 9 is outside 0..8" when value is not in [0, count).
void check_index(const char* what, int value, int count);

// `part` of a token's `stream`, through the family's norm held at that
// token's value: (part − mean(part)) / σ(stream) ⊙ γ for LayerNorm (its bias
// left out, a source of its own), part / rms(stream) ⊙ γ for RMSNorm (γ is
// the stored weight: 1 + γ for Gemma's, as family_norm reads it). Summed
// over the parts this is the norm of the stream, less the bias.
Row64 held_by_norm(const ModelConfig& c, const Row64& stream, const Row64& part, const Row64& gamma);

}  // namespace attn::hf::detail
