#pragma once
// What quantization does to each head: the same tokens through two
// checkpoints of one model (a GGUF in Q4_K beside its F16 GGUF or its
// safetensors folder), and each head's attention rows compared. A row is a
// query's distribution over the keys; two rows differ by their
// Jensen-Shannon divergence in bits (0: the same weights, 1: no key in
// common), symmetric and bounded, so every head of every model reads on
// one scale.
#include <functional>
#include <vector>

#include "attn/hf/checkpoint/checkpoint.hpp"

namespace attn::hf {

struct HeadDivergence {
  int layer = 0, head = 0;
  double mean = 0;    // over the query rows
  double worst = 0;   // the row that moved most
  int worst_row = 0;  // its query's position
};

struct QuantDivergence {
  std::vector<int> ids;
  std::vector<HeadDivergence> heads;  // layer by layer, head by head
  int n_layers = 0, n_heads = 0;
  bool cancelled = false;
  const HeadDivergence& at(int layer, int head) const { return heads[static_cast<std::size_t>(layer * n_heads + head)]; }
};

// Both passes in float64. Throws ModelError when the two are not the same
// model's shapes (layers, heads, vocabulary), or as run_forward does.
// `progress` is told the passes done (0 to 2); false cancels.
QuantDivergence quant_divergence(const Checkpoint& quantized, const Checkpoint& reference, const std::vector<int>& ids,
                                 const std::function<bool(int passes_done)>& progress = {});

// The Jensen-Shannon divergence of two distributions over the same keys, in bits.
double js_divergence_bits(const double* p, const double* q, long n);

}  // namespace attn::hf
