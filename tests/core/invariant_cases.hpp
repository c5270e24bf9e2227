// Shared pieces of the invariant suites: a stage lookup that fails the test
// with the stage's name, and the set of masked scenarios (none, causal,
// padding, custom, fully masked row, every key padded) they all run over.
#pragma once

#include <string>
#include <vector>

#include "attn/attn.hpp"
#include "random_scenario.hpp"

namespace inv {

constexpr double kInvariantTol = 1e-12;  // absolute below 1, relative above

// Throws std::out_of_range naming the stage when it is absent.
const attn::Stage& stage(const attn::Trace& t, attn::StageKind id, int head = -1);

// Two heads with W_O, five tokens, before_softmax, keys axis.
std::vector<ref::CaseSpec> masked_cases();

}  // namespace inv
