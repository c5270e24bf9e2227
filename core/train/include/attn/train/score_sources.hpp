// The Train view's models, read for why their heads attend: the residual
// stream entering a layer as its sources (token embedding, position, each
// earlier head's output through its rows of W_O, each earlier MLP), and one
// score of that layer split over (query source, key source) pairs
// (attn/why/source_split.hpp). The model has no norm, so the split is exact:
// an induction head's top score shows which earlier head its key reads.
#pragma once

#include <string>
#include <vector>

#include "attn/train/model.hpp"
#include "attn/why/source_split.hpp"

namespace attn::train {

// The residual stream entering `layer` (0..n_layers; n_layers is the final
// stream), as sources. names[s] names source s ("token embedding",
// "position", "L0 H3", "L0 MLP"); parts[s] is (seq_len, d_model), and
// Σ_s parts[s] equals forward(model, tokens).residual[layer] to rounding.
struct StreamSources {
  std::vector<std::string> names;
  std::vector<Mat> parts;
};
StreamSources stream_sources(const Model& model, const std::vector<int>& tokens, int layer);

// S[query, key] of `head` in `layer` (before the 1/√d_k scale) split by
// source. Throws std::invalid_argument naming the tokens, layer, head or
// cell that is out of range, or a key after the query (the mask hides it).
// A layer's head as a source is named "L0 H3".
std::string head_source_name(int layer, int head);

SourceSplit split_score_by_source(const Model& model, const std::vector<int>& tokens, int layer, int head,
                                  int query, int key);

}  // namespace attn::train
