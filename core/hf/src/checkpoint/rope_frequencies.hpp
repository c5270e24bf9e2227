#pragma once
// RoPE's inverse frequencies as config.json defines them: the plain
// theta^(-2i/d) ladder, optionally rescaled by rope_scaling ("linear", or
// Llama 3.1's "llama3", which slows only the long wavelengths).
#include <nlohmann/json_fwd.hpp>
#include <vector>

namespace attn::hf::detail {

std::vector<double> rope_inverse_frequencies(const nlohmann::json& config, int head_dim, double theta);

}  // namespace attn::hf::detail
