// The Model view's quantization map: the model open (a GGUF in Q4_K, say)
// beside the same model at higher precision (a GGUF in F16, or the
// safetensors folder), the overview's text through both, and how far each
// head's attention moved (attn::hf::quant_divergence). It runs when asked,
// in the background, with progress and cancel; a click on a head opens its
// layer in compare, the model open (A) against the one beside it (B).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "attn/hf/checkpoint/checkpoint.hpp"
#include "attn/hf/quant/quant_divergence.hpp"
#include "model/hf/map_job.hpp"

namespace model {

struct QuantInput {
  std::shared_ptr<const attn::hf::Checkpoint> checkpoint;
  std::vector<int> ids;  // the overview's
  std::string beside;    // the other model's path, as typed
};

struct QuantMap {
  std::vector<int> ids;
  std::string beside;  // as typed
  std::shared_ptr<const attn::hf::Checkpoint> beside_checkpoint;
  std::string types, beside_types;  // the weights' types: "Q4_K, Q6_K", "F16"
  attn::hf::QuantDivergence divergence;
};

// "Q4_K, Q6_K": the types of a checkpoint's weight matrices, most weights
// first (the Model view's family line names the first).
std::string weight_types(const attn::hf::Checkpoint& checkpoint);

class ModelQuant : public MapJob<QuantInput, QuantMap, &QuantMap::ids> {
 public:
  ModelQuant();
};

}  // namespace model
