// Seeded scenes for the KV-cache tests: each named case is a random
// self-attention scene (tests/core/reference/random_scenario.hpp) with one
// modern option set on top (a window, RoPE, grouped-query heads...), so the
// decode loop is held to the full trace under every option it supports.
#pragma once

#include <string>
#include <vector>

#include "attn/scenario/scenario.hpp"

namespace decode_test {

struct Case {
  std::string name;
  attn::Scenario s;
};

// Every option the decoder supports, alone or mixed, on small scenes.
std::vector<Case> decodable_cases();

}  // namespace decode_test
