// Seeded random scenes for the FlashAttention tests: one struct names the
// options a case turns on (every mask kind, ALiBi, sinusoidal positions,
// RoPE, grouped key/value heads, cross-attention), and make_flash_scene
// fills in numbers from a std::mt19937, so each run checks the same values.
#pragma once

#include <string>
#include <vector>

#include "attn/scenario/scenario.hpp"

namespace flash_test {

struct SceneSpec {
  std::string name;
  int n_q = 5, n_k = 5;  // n_k is used only with cross
  int d_model = 4, d_k = 4, d_v = 3;
  int n_heads = 2, n_kv_heads = 0;
  bool cross = false;
  attn::MaskKind mask = attn::MaskKind::None;
  int window = 0, sinks = 0, stride = 0;
  bool custom_full_row = false;  // the custom mask blocks every key of query 1
  bool key_padding = false;      // a random key or two blocked for every query
  attn::Positional positional = attn::Positional::None;
  bool rope = false;
  double softcap = 0;  // Gemma 2's cap on the scaled scores; 0 for none
  unsigned seed = 1;
};

attn::Scenario make_flash_scene(const SceneSpec& spec);

// The cases every equality test runs: each mask kind, each position scheme,
// RoPE, grouped heads, cross-attention with n_q ≠ n_k.
std::vector<SceneSpec> flash_cases();

}  // namespace flash_test
