// A name for an edit, read off the scenario before and after it, for the
// history list (Edit > History): "X[the, 1] 0.5 → 3", "τ 1 → 0.5", "mask
// causal", "tokens 4 → 12". Reading the two states means no edit can forget
// to name itself.
#pragma once

#include <string>

#include "attn/scenario/scenario.hpp"

namespace model {

std::string describe_change(const attn::Scenario& before, const attn::Scenario& after);

}  // namespace model
