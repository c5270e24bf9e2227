// Independent reference trace: every stage of attention recomputed with plain
// loops straight from the stage spec, so the core can be checked stage by
// stage. Stage ids and head numbering match the core's published trace.
#pragma once

#include <string>
#include <vector>

#include "attn/scenario/scenario.hpp"
#include "ref_matrix.hpp"

namespace ref {

struct RefStage {
  std::string id;
  int head = -1;  // -1 for shared stages
  RMat value;     // (rows, cols); blocked logits hold -inf
};

struct RefTrace {
  std::vector<RefStage> stages;  // in computation order
  RMask blocked;                 // (n_q, n_k), shared by every head
  std::vector<int> fully_masked; // rows (keys axis) or columns (queries axis)

  const RefStage* find(const std::string& id, int head = -1) const;
};

// Computes every stage the spec lists for this scenario (optional stages
// only when their option is on). Assumes the scenario passed validation.
RefTrace reference_trace(const attn::Scenario& s);

}  // namespace ref
