// The one-line description `attn check` prints for a valid scenario, e.g.
// "4 tokens, d_model 4, 2 heads (d_k 3, d_v 3), mask causal". Options left
// at their defaults are not mentioned, so the line stays short.
#pragma once

#include <string>

#include "attn/scenario/scenario.hpp"

namespace attn::cli {

std::string summarize(const Scenario& s);

}  // namespace attn::cli
