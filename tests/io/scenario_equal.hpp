// Field-by-field equality of scenarios for round-trip tests. The core has no
// operator== (Eigen matrices compare element-wise), so tests spell out what
// "the same scenario" means: identical shapes, values, labels and options.
#pragma once

#include <string>

#include "attn/scenario.hpp"

namespace attn::io::test {

// Empty when equal, else the first difference, e.g. "heads[1].w_k differs".
std::string scenario_difference(const Scenario& a, const Scenario& b);

}  // namespace attn::io::test
