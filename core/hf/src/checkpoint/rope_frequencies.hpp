#pragma once
// RoPE as config.json defines it, in either layout: transformers 4 writes a
// top-level "rope_theta" and "rope_scaling"; transformers 5 writes
// "rope_parameters": {"rope_type", "rope_theta", ...}. The result is the
// inverse frequency of each rotated pair after any rescaling ("linear",
// "dynamic", "yarn", Llama 3.1's "llama3"), and YaRN's attention factor.
// A key a type does not define, or a type the forward does not implement,
// is refused by name: a silently ignored key gives wrong numbers.
#include <nlohmann/json_fwd.hpp>

#include <string>
#include <vector>

namespace attn::hf::detail {

struct RopeSettings {
  std::string type = "default";
  double theta = 10000;
  std::vector<double> inv_freq;  // head_dim / 2 entries
  // YaRN multiplies cos and sin by this, so every score by its square.
  double attention_factor = 1;
};

RopeSettings read_rope(const nlohmann::json& config, int head_dim, int max_positions, std::vector<std::string>& notes);

}  // namespace attn::hf::detail
